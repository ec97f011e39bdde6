"""頻脈アラーム: 心拍数が閾値を超えた状態が一定サンプル以上続いた区間を検出する。"""

import numpy as np
import pandas as pd


def tachycardia_alarm(df: pd.DataFrame, limit: float = 100.0, min_samples: int = 8) -> pd.Series:
    hr = df["hr_bpm"].to_numpy(dtype=float)
    fast = hr > limit
    out = np.zeros(len(hr), dtype=int)
    i = 0
    while i < len(fast):
        if not fast[i]:
            i += 1
            continue
        j = i
        while j < len(fast) and fast[j]:
            j += 1
        if j - i >= min_samples:
            out[i:j] = 1
        i = j
    return pd.Series(out, index=df.index, name="tachy")

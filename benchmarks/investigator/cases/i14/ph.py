"""排水 pH 監視: 管理範囲外のフレームに z=1 を立てる。"""

import pandas as pd

LOW, HIGH = 6.5, 8.5


def ph_alarm(df: pd.DataFrame) -> pd.DataFrame:
    ph = df["ph"].round(2)
    out = df.copy()
    out["z"] = ((ph < LOW) | (ph > HIGH)).astype(int)
    return out

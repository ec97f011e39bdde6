"""SpO2 低下（デサチュレーション）検出。"""

import numpy as np
import pandas as pd

DESAT_LIMIT = 90.0
MIN_SECONDS = 10


def detect_desaturation(df: pd.DataFrame) -> pd.DataFrame:
    spo2 = df["spo2"].fillna(0)
    low = (spo2 < DESAT_LIMIT).to_numpy()
    desat = np.zeros(len(low), dtype=int)
    run_start = None
    for i in range(len(low) + 1):
        if i < len(low) and low[i]:
            if run_start is None:
                run_start = i
        elif run_start is not None:
            if i - run_start >= MIN_SECONDS:
                desat[run_start:i] = 1
            run_start = None
    out = df.copy()
    out["desat"] = desat
    return out

"""GPS 停車検出（配送車両の停車区間）。"""

import numpy as np
import pandas as pd

STOP_SPEED_MPS = 0.5
MIN_STOP_S = 30


def _mark_long_runs(mask: np.ndarray, min_len: int) -> np.ndarray:
    out = np.zeros(len(mask), dtype=int)
    start = 0
    while start < len(mask):
        if not mask[start]:
            start += 1
            continue
        end = start
        while end < len(mask) and mask[end]:
            end += 1
        if end - start >= min_len:
            out[start:end] = 1
        start = end
    return out


def detect_stops(df: pd.DataFrame) -> pd.Series:
    speed = df["speed_kmh"].to_numpy(dtype=float)
    stopped = speed < STOP_SPEED_MPS
    return pd.Series(_mark_long_runs(stopped, MIN_STOP_S), index=df.index, name="stop")

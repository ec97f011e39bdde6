"""Free-fall detection for a wearable (fall alarm pre-trigger)."""

import numpy as np
import pandas as pd

G = 9.81
FREEFALL_G = 0.4
MIN_FRAMES = 5


def _long_runs(mask: np.ndarray, min_len: int) -> np.ndarray:
    out = np.zeros(len(mask), dtype=int)
    run = 0
    for i, low in enumerate(mask):
        run = run + 1 if low else 0
        if run >= min_len:
            out[i - run + 1 : i + 1] = 1
    return out


def detect_falls(df: pd.DataFrame) -> np.ndarray:
    ax, ay, az = (df[c].to_numpy(dtype=float) for c in ("ax", "ay", "az"))
    mag = np.sqrt(ax**2 + ay**2 + az**2)
    return _long_runs(mag < FREEFALL_G, MIN_FRAMES)

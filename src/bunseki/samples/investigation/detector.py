"""A threshold detector with hysteresis and a minimum run (the sample case's algorithm).

z turns 1 once x has been at or above ``on`` for ``min_run`` consecutive frames (from the
frame that completes the run) and stays 1 until x falls below ``off``.
"""

import numpy as np
import pandas as pd


def detect(frame: pd.DataFrame, on: float = 0.8, off: float = 0.4, min_run: int = 3) -> pd.Series:
    x = frame["x"].to_numpy(dtype=float)
    z = np.zeros(len(x), dtype=int)
    state = 0
    count = 0
    for i in range(len(x)):
        if state == 0:
            count = count + 1 if x[i] > on else 0
            if count >= min_run:
                state = 1
        elif x[i] < off:
            state = 0
            count = 0
        z[i] = state
    return pd.Series(z, name="z")

"""Hard-braking detection from the longitudinal acceleration of a vehicle's IMU."""

import numpy as np
import pandas as pd

SAMPLE_HZ = 25  # IMU output rate
BRAKE_LIMIT_MPS2 = -4.0
MIN_DURATION_S = 0.2


def _runs(mask: np.ndarray) -> list[tuple[int, int]]:
    """(start, end) of each run of True values; end is exclusive."""
    padded = np.concatenate(([False], mask, [False])).astype(int)
    edges = np.flatnonzero(np.diff(padded))
    return list(zip(edges[::2], edges[1::2], strict=True))


def detect_hard_braking(df: pd.DataFrame) -> pd.Series:
    accel = df["accel_x"].to_numpy(dtype=float)
    braking = accel <= BRAKE_LIMIT_MPS2
    min_frames = round(MIN_DURATION_S * SAMPLE_HZ)
    brake = np.zeros(len(df), dtype=int)
    for start, end in _runs(braking):
        if end - start >= min_frames:
            brake[start:end] = 1
    return pd.Series(brake, index=df.index, name="brake")

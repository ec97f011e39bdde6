"""Small algorithms with one defect each (and one without), and signals that show it."""

from __future__ import annotations

import numpy as np

HYSTERESIS = """
import numpy as np
import pandas as pd


def detect(frame, on=0.8, off=0.4, min_run=3):
    x = frame["x"].to_numpy(dtype=float)
    z = np.zeros(len(x), dtype=int)
    state = 0
    count = 0
    for i in range(len(x)):
        if state == 0:
            count = count + 1 if x[i] >= on else 0
            if count >= min_run:
                state = 1
        elif x[i] < off:
            state = 0
            count = 0
        z[i] = state
    return pd.Series(z, name="z")
"""

WINDOW = """
import numpy as np


def detect(frame, level=0.5):
    x = frame["x"].to_numpy(dtype=float)
    z = np.zeros(len(x), dtype=int)
    for i in range(len(x)):
        segment = x[max(0, i - 3 + 1) : i + 1]  # the last three frames
        if segment.mean() >= level:
            z[i] = 1
    return z
"""

DELAY = """
import numpy as np


def detect(frame, level=0.5, delay=1):
    x = frame["x"].to_numpy(dtype=float)
    z = np.zeros(len(x), dtype=int)
    z[delay:] = x[: len(x) - delay] >= level
    return z
"""

ABS = """
import numpy as np


def detect(frame, level=0.5):
    x = frame["x"].to_numpy(dtype=float)
    return (np.abs(x) >= level).astype(int)
"""


def plateaus(parts: list[tuple[int, int, float]], n: int = 80, base: float = 0.1) -> dict[str, np.ndarray]:
    x = np.full(n, base)
    for start, end, value in parts:
        x[start : end + 1] = value
    return {"x": x}


# name: (buggy, correct, signals)
DEFECTS = {
    "operator_at_threshold": (
        HYSTERESIS.replace("x[i] >= on", "x[i] > on"),
        HYSTERESIS,
        plateaus([(10, 19, 0.8), (50, 59, 0.9)]),
    ),
    "off_by_one_window": (
        WINDOW.replace("i - 3 + 1", "i - 3 + 2"),
        WINDOW,
        plateaus([(20, 29, 1.0), (50, 50, 1.0), (60, 61, 1.0)], base=0.0),
    ),
    "wrong_default": (
        HYSTERESIS.replace("min_run=3", "min_run=5"),
        HYSTERESIS,
        plateaus([(10, 19, 0.9), (40, 52, 0.95)]),
    ),
    "lag": (
        DELAY.replace("delay=1", "delay=3"),
        DELAY,
        plateaus([(20, 29, 0.9), (50, 55, 0.9)], base=0.0),
    ),
}

"""Small algorithms with one defect each (and one without), and signals that show it."""

from __future__ import annotations

from typing import NamedTuple

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


CENTRED = """
import numpy as np


def detect(frame, level=0.5):
    x = frame["x"].to_numpy(dtype=float)
    z = np.zeros(len(x), dtype=int)
    for i in range(len(x)):
        segment = x[max(0, i - 2) : i + 1]  # three frames
        if segment.mean() >= level:
            z[i] = 1
    return z
"""

SCALE = """
import numpy as np


def detect(frame, level=0.5):
    volts = frame["x"].to_numpy(dtype=float) / 1000  # x is in millivolts
    return (volts >= level).astype(int)
"""

PAIRS = """
import numpy as np


def detect(frame, level=0.5):
    x = frame["x"].to_numpy(dtype=float)
    z = np.zeros(len(x), dtype=int)
    for i in range(1, len(x)):
        z[i] = int(x[i] >= level and x[i - 1] >= level)  # two frames in a row
    return z
"""

BIAS = """
import numpy as np
import pandas as pd


def detect(frame, level=10.0):
    y = frame["x"].to_numpy(dtype=float) - 4.0  # the level without the sensor's bias
    return pd.DataFrame({"y": y, "z": (y >= level).astype(int)})
"""

FILL = """
import numpy as np


def detect(frame, level=0.5):
    x = frame["x"].ffill()  # a gap keeps the last level
    return (x.to_numpy(dtype=float) >= level).astype(int)
"""

ROUNDED = """
import numpy as np


def detect(frame, level=0.5):
    x = frame["x"].to_numpy(dtype=float)
    return (np.round(x, 2) >= level).astype(int)  # the readings have two decimals
"""

CAST = """
import numpy as np


def detect(frame, level=2.5):
    x = frame["x"].to_numpy(dtype=float)  # volts, with decimals
    return (x >= level).astype(int)
"""


def plateaus(parts: list[tuple[int, int, float]], n: int = 80, base: float = 0.1) -> dict[str, np.ndarray]:
    x = np.full(n, base)
    for start, end, value in parts:
        x[start : end + 1] = value
    return {"x": x}


# Beyond any simple edit: the reference filters one-frame spikes with a median over five frames.
THRESHOLD = """import numpy as np


def detect(frame, level=0.8):
    x = frame["x"].to_numpy(dtype=float)
    return (x >= level).astype(int)
"""
MEDIAN_FILTERED = """import numpy as np


def detect(frame, level=0.8):
    x = frame["x"].rolling(5, center=True, min_periods=1).median().to_numpy()
    return (x >= level).astype(int)
"""


def spikes() -> dict[str, np.ndarray]:
    """A plateau the median keeps (frames 10-19) and two one-frame spikes it removes (30 and 50)."""
    signals = plateaus([(10, 19, 0.9)])
    signals["x"][[30, 50]] = 0.95
    return signals


class Defect(NamedTuple):
    buggy: str
    correct: str
    signals: dict[str, np.ndarray]
    fixed: tuple[str, ...]  # what the lines the fix adds must hold (one per edited line)
    spec: str = "The flag z marks events of x."


DEFECTS = {
    "operator_at_threshold": Defect(
        HYSTERESIS.replace("x[i] >= on", "x[i] > on"),
        HYSTERESIS,
        plateaus([(10, 19, 0.8), (50, 59, 0.9)]),
        ("x[i] >= on",),
    ),
    "off_by_one_window": Defect(
        WINDOW.replace("i - 3 + 1", "i - 3 + 2"),
        WINDOW,
        plateaus([(20, 29, 1.0), (50, 50, 1.0), (60, 61, 1.0)], base=0.0),
        ("i - 3 + 1",),
    ),
    "wrong_default": Defect(
        HYSTERESIS.replace("min_run=3", "min_run=5"),
        HYSTERESIS,
        plateaus([(10, 19, 0.9), (40, 52, 0.95)]),
        ("min_run=3",),
    ),
    "lag": Defect(
        DELAY.replace("delay=1", "delay=3"),
        DELAY,
        plateaus([(20, 29, 0.9), (50, 55, 0.9)], base=0.0),
        ("delay=1",),
    ),
    # A centred window where a trailing one is meant: both bounds move, no single edit does it.
    "centred_window_alignment": Defect(
        CENTRED.replace("i - 2) : i + 1]", "i - 1) : i + 2]"),
        CENTRED,
        plateaus([(20, 29, 1.0), (50, 50, 1.0), (60, 61, 1.0)], base=0.0),
        ("i - 2) : i + 1]",),
    ),
    # A unit error: millivolts divided by 100 to make volts.
    "unit_scale": Defect(
        SCALE.replace("/ 1000", "/ 100"),
        SCALE,
        {"x": plateaus([(10, 19, 80.0), (30, 39, 300.0), (50, 59, 700.0)], base=20.0)["x"]},
        ("/ 1000",),
        "x is the voltage in millivolts. z is 1 while the voltage is at or above the level 0.5 V.",
    ),
    # A wrong offset in a signal the algorithm also writes (y): the regression of y on the reference's says +3.
    "signal_offset": Defect(
        BIAS.replace("- 4.0", "- 1.0"),
        BIAS,
        {"x": plateaus([(10, 19, 12.0), (30, 39, 20.0)], base=5.0)["x"]},
        ("- 4.0",),
        "The sensor reads 4.0 above the true level. y is the true level; z is 1 while y is at or above 10.0.",
    ),
    # Rounding before the comparison: 0.46 and 0.48 round to 0.5 and are flagged; the reference's are not.
    "rounding_before_threshold": Defect(
        ROUNDED.replace("np.round(x, 2)", "np.round(x, 1)"),
        ROUNDED,
        plateaus([(10, 19, 0.46), (30, 39, 0.44), (50, 59, 0.9), (65, 69, 0.48)]),
        ("np.round(x, 2)",),
    ),
    # A dtype defect: the signal read as integers (2.7 → 2) misses the level 2.5 the reference meets.
    "integer_cast": Defect(
        CAST.replace("dtype=float", "dtype=int"),
        CAST,
        plateaus([(10, 19, 2.7), (30, 39, 3.2), (50, 59, 2.2)], base=1.0),
        ("dtype=float",),
    ),
    # The loop stops one frame early: the last frame is never flagged.
    "last_frame_edge": Defect(
        PAIRS.replace("range(1, len(x))", "range(1, len(x) - 1)"),
        PAIRS,
        plateaus([(20, 29, 0.9), (70, 79, 0.9)]),
        ("len(x) - 0",),
    ),
}


def gaps() -> dict[str, np.ndarray]:
    """Missing values after a high frame (the reference keeps it high) and after a low one."""
    x = plateaus([(10, 19, 0.9)])["x"]
    x[15] = np.nan
    x[40] = np.nan
    return {"x": x}


# The buggy version treats a gap as no signal; no number or operator turns that into "keep the last level".
MISSING_VALUES = (FILL.replace(".ffill()  # a gap keeps the last level", ".fillna(0)  # a gap is no signal"), FILL)

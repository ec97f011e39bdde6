"""音声クリッピング検出: フルスケール付近に張り付いたサンプル列を検出する。"""

import numpy as np
import pandas as pd

FULL_SCALE = 0.99
MIN_RUN = 3


def detect_clipping(df: pd.DataFrame) -> np.ndarray:
    level = np.abs(df["sample"].to_numpy(dtype=float))
    at_limit = level >= FULL_SCALE
    clip = np.zeros(len(level), dtype=int)
    start = None
    for i, hit in enumerate(np.append(at_limit, False)):
        if hit and start is None:
            start = i
        elif not hit and start is not None:
            if i - start >= MIN_RUN:
                clip[start:i] = 1
            start = None
    return clip

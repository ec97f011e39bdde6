"""Telemetry gap detector: flags messages that arrive after a silence longer than allowed."""

import pandas as pd

MAX_GAP_S = 1.5


def detect_gaps(df: pd.DataFrame) -> pd.Series:
    dt_s = df["t_ms"].diff() / 100.0
    return (dt_s > MAX_GAP_S).astype(int).rename("gap")

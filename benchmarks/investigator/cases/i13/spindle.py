"""CNC spindle overload detector (10-sample mean of the spindle load)."""

import pandas as pd

MEAN_SAMPLES = 10
OVERLOAD_PCT = 90.0


def _load(df: pd.DataFrame) -> pd.Series:
    return df["load_pct"].astype(float)


def detect_overload(df: pd.DataFrame) -> pd.DataFrame:
    mean = _load(df).rolling(MEAN_SAMPLES, min_periods=MEAN_SAMPLES).mean()
    return pd.DataFrame({"frame": df["frame"], "overload": (mean >= OVERLOAD_PCT).astype(int)})

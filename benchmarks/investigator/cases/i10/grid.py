"""Grid-frequency excursion flag for a substation PMU stream."""

import pandas as pd


def frequency_alarm(df: pd.DataFrame, nominal: float = 50.0, tolerance: float = 0.25) -> pd.Series:
    deviation = (df["freq_hz"] - nominal).abs()
    return (deviation > tolerance).astype(int).rename("flag")

"""PM2.5 hourly-mean alarm for an outdoor air-quality station."""

import pandas as pd

WINDOW = 60  # samples
LIMIT_UG_M3 = 35.0


def pm25_alarm(df: pd.DataFrame) -> pd.Series:
    hourly = df["pm25"].rolling(WINDOW, min_periods=WINDOW).mean()
    return (hourly > LIMIT_UG_M3).astype(int).rename("pm_alarm")

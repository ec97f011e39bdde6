"""Machine-vibration alarm: RMS vibration velocity over a centred window."""

import pandas as pd


def flag_vibration(df: pd.DataFrame, window: int = 11, limit: float = 4.5) -> pd.DataFrame:
    v = df["vel_mm_s"].astype(float)
    rms = (v**2).rolling(window, center=True, min_periods=1).mean() ** 0.5
    out = df[["frame"]].copy()
    out["rms"] = rms.round(3)
    out["alarm"] = (rms > limit).astype(int)
    return out

"""PMU replay check: compares the flag with the grid-code band."""

import pandas as pd

NOMINAL_HZ = 50.0
BAND_HZ = 0.2


def eval_func(df: pd.DataFrame) -> dict:
    outside = ((df["freq_hz"] - NOMINAL_HZ).abs() > BAND_HZ).astype(int)
    bad = df.loc[outside != df["flag"], "frame"].tolist()
    return {"passed": len(bad) == 0, "mismatch_frames": bad}

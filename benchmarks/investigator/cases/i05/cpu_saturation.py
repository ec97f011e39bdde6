"""CPU saturation detector for host metrics."""

import pandas as pd

SAMPLE_PERIOD_S = 10


def detect_cpu_saturation(df: pd.DataFrame, limit: int = 95, hold_s: int = 60) -> pd.DataFrame:
    hot = df["cpu_pct"] > limit
    need = hold_s // SAMPLE_PERIOD_S
    run_id = (hot != hot.shift()).cumsum()
    run_len = hot.groupby(run_id).transform("size")
    saturated = (hot & (run_len >= need)).astype(int)
    return pd.DataFrame({"frame": df["frame"], "saturated": saturated})

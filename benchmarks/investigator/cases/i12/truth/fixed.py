"""河川水位の氾濫注意判定。"""

import pandas as pd

WARNING_LEVEL_M = 3.0


def flood_warning(df: pd.DataFrame) -> pd.Series:
    level = df["level_m"]
    return (level >= WARNING_LEVEL_M).astype(int).rename("flood")

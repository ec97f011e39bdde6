"""冷凍倉庫の温度アラーム（表示温度ベース）。"""

import numpy as np
import pandas as pd

ALARM_AT_C = -15


def temperature_alarm(df: pd.DataFrame) -> np.ndarray:
    shown = df["temp_c"].astype(int)
    return (shown >= ALARM_AT_C).astype(int).to_numpy()

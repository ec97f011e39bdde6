"""Price-spike flag for a tick stream: deviation from a robust reference of the previous ticks."""

import pandas as pd

LOOKBACK = 20
SPIKE_PCT = 0.02


def _reference(price: pd.Series) -> pd.Series:
    return price.shift(1).rolling(LOOKBACK, min_periods=LOOKBACK).median()


def flag_price_spikes(df: pd.DataFrame) -> pd.Series:
    price = df["price"].astype(float)
    ref = _reference(price)
    deviation = (price / ref - 1.0).abs()
    return (deviation > SPIKE_PCT).astype(int).rename("spike")

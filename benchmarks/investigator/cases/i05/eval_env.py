"""Replay check: the output's saturated flag against the alert engine's rule."""

import pandas as pd

RULE_LIMIT_PCT = 95  # inclusive
RULE_HOLD_SAMPLES = 6  # 60 s at one sample per 10 s


def _rule(cpu: pd.Series) -> pd.Series:
    hot = cpu >= RULE_LIMIT_PCT
    run = (hot != hot.shift()).cumsum()
    length = hot.groupby(run).transform("size")
    return (hot & (length >= RULE_HOLD_SAMPLES)).astype(int)


def eval_func(df: pd.DataFrame) -> list:
    reference = _rule(df["cpu_pct"])
    differ = int((reference != df["saturated"].astype(int)).sum())
    return [differ == 0, differ]

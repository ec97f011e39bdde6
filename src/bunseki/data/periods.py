"""Partial periods: a first or last period of a series that the data cover only in part.

A weekly series that starts on a Thursday, or ends on a Monday with one day of data, has a first
or last week that holds fewer days than the others; a sum over it is small because the period is
short, not because anything fell. `period_coverage` says how much of its first and last period
the data cover, from the dates themselves (the data's own spacing: daily rows cover a day each).
A period covered less than `PARTIAL_SHARE` is partial: EDA's trend step and the analyst's trend
answers mark it, and leave it out of first-to-last changes, slopes and extremes.

This module runs both on the host (tested as it is) and inside the sandbox, where the generated
code carries its source (`SOURCE`): it needs pandas only.
"""

from __future__ import annotations

import inspect

import pandas as pd

PARTIAL_SHARE = 0.75  # a period the data cover less than this share of is partial

# resample rules (start- or end-labelled) → the period of a date in them
_PERIODS = {"h": "h", "D": "D", "W": "W-SUN", "W-MON": "W-MON", "W-SUN": "W-SUN", "MS": "M", "M": "M", "ME": "M"}
_PERIODS |= {"QS": "Q", "Q": "Q", "QE": "Q", "YS": "Y", "Y": "Y", "YE": "Y", "AS": "Y", "A": "Y"}


def period_coverage(dates: pd.Series, rule: str) -> tuple[float, float]:
    """The share (0–1) of the first and of the last period of ``rule`` that ``dates`` cover.

    A period is covered from the first date in it to the last date in it plus the data's usual
    spacing (the median gap between distinct dates), so daily data cover whole days and monthly
    data whole months. 1.0 for both when the dates do not say (fewer than two distinct dates).
    """
    alias = _PERIODS.get(rule, rule)
    stamps = pd.to_datetime(dates, errors="coerce").dropna()
    distinct = pd.Series(stamps.unique()).sort_values()
    if len(distinct) < 2:
        return 1.0, 1.0
    step = pd.Timedelta(distinct.diff().dropna().median())
    periods = stamps.dt.to_period(alias)
    first, last = periods.min(), periods.max()

    def share(period: pd.Period, start: pd.Timestamp, end: pd.Timestamp) -> float:
        length = period.end_time - period.start_time + pd.Timedelta(1, "ns")
        covered = min(end + step, period.end_time + pd.Timedelta(1, "ns")) - max(start, period.start_time)
        return max(0.0, min(1.0, covered / length))

    head, tail = stamps[periods == first], stamps[periods == last]
    return share(first, head.min(), head.max()), share(last, tail.min(), tail.max())


def partial_ends(dates: pd.Series, rule: str, periods: int) -> tuple[bool, bool]:
    """Whether the first and the last of ``periods`` periods are partial; never both ends of two or fewer."""
    if periods < 3:
        return False, False
    head, tail = period_coverage(dates, rule)
    return head < PARTIAL_SHARE, tail < PARTIAL_SHARE


SOURCE = "\n".join(
    [
        f"PARTIAL_SHARE = {PARTIAL_SHARE!r}",
        f"_PERIODS = {_PERIODS!r}",
        inspect.getsource(period_coverage),
        inspect.getsource(partial_ends),
    ]
)

"""Expected answers in the shapes every table's questions share, so each table lists only its words.

Each helper is the same pandas computation the questions wrote out before (the same calls in the
same order), so the expected values are unchanged to the last bit.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pandas as pd

from questions import compute as c
from questions.expect import Compute, count, direction, name, names, number, percent, period

Rows = Callable[[pd.DataFrame], pd.DataFrame]


def where(column: str, value: Any) -> Rows:
    """The rows whose ``column`` equals ``value`` (初診だけ, remote workers only)."""
    return lambda d: d[d[column] == value]


def distinct(column: str) -> Compute:
    """How many different values ``column`` holds."""
    return count(lambda d: d[column].nunique())


def winner(by: str, measure: str | None = None, agg: str = "sum", *, rows: Rows | None = None, **kw: Any) -> Compute:
    """The ``by`` value first by the ``agg`` of ``measure`` (by row count when None), over ``rows`` or all."""
    return name(lambda d: c.first(rows(d) if rows else d, by, measure, agg, **kw), by)


def leaders(by: str, measure: str | None = None, agg: str = "sum", *, n: int, ascending: bool = False) -> Compute:
    """The first ``n`` ``by`` values by the ``agg`` of ``measure`` (by row count when None)."""
    return names(lambda d: c.top(d, by, measure, agg, n=n, ascending=ascending), by)


def row_share(column: str, value: Any) -> Compute:
    """The percentage of rows whose ``column`` is ``value``."""
    return percent(lambda d: 100 * (d[column] == value).mean())


def total_share(column: str, value: Any, measure: str) -> Compute:
    """The percentage of the total ``measure`` that the rows with ``column`` = ``value`` hold."""
    return percent(lambda d: c.share(d.loc[d[column] == value, measure], d[measure]))


def correlation(a: str, b: str, tolerance: float, *, method: str = "pearson") -> Compute:
    """The correlation of two columns, its sign given or not."""
    return number(lambda d: d[a].corr(d[b], method=method), tolerance, absolute=True)  # type: ignore[arg-type]


def peak(date: str, measure: str | None, grain: str, agg: str = "sum") -> Compute:
    """The period of ``grain`` with the largest ``agg`` of ``measure`` (the most rows when None)."""
    return period(lambda d: c.peak(d, date, measure, grain, agg), grain, date)


def trend(date: str, measure: str, grain: str = "M") -> Compute:
    """Up or down: the sign of the slope of the totals per ``grain``."""
    return direction(lambda d: c.slope(d, date, measure, grain))


def zscore_outliers(column: str) -> Compute:
    """How many values of ``column`` lie more than three standard deviations from its mean."""
    return count(lambda d: c.zscore_count(d[column]))


def iqr_outliers(column: str) -> Compute:
    """How many values of ``column`` lie beyond 1.5 × IQR of its quartiles."""
    return count(lambda d: c.iqr_count(d[column]))


def value_change(column: str, base: Any, value: Any, measure: str, agg: str = "mean", **kw: Any) -> Compute:
    """The percent by which the ``agg`` of ``measure`` over ``value``'s rows differs from that over ``base``'s."""

    def of(d: pd.DataFrame, which: Any) -> float:
        return float(getattr(d.loc[d[column] == which, measure], agg)())

    return percent(lambda d: c.change(of(d, base), of(d, value)), **kw)


def window_change(
    date: str, before: tuple[str, str], after: tuple[str, str], measure: str | None = None, agg: str = "mean"
) -> Compute:
    """The percent change from the rows dated in ``before`` ([start, end)) to those in ``after``:
    of how many there are, or of the ``agg`` of their ``measure``."""

    def of(d: pd.DataFrame, span: tuple[str, str]) -> float:
        rows = c.window(d, date, *span)
        return len(rows) if measure is None else float(getattr(rows[measure], agg)())

    return percent(lambda d: c.change(of(d, before), of(d, after)))

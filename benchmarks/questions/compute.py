"""Small pandas computations the expected answers share (rankings, growth, outliers, peaks)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd


def ranked(
    df: pd.DataFrame, by: str, measure: str | None = None, agg: str = "sum", *, ascending: bool = False
) -> list[Any]:
    """Group names ordered by the aggregate of ``measure`` (or by row count when None)."""
    totals = df.groupby(by).size() if measure is None else df.groupby(by)[measure].agg(agg)
    return list(totals.sort_values(ascending=ascending, kind="stable").index)


def top(df: pd.DataFrame, by: str, measure: str | None = None, agg: str = "sum", n: int = 1, **kw: Any) -> list[Any]:
    return ranked(df, by, measure, agg, **kw)[:n]


def first(df: pd.DataFrame, by: str, measure: str | None = None, agg: str = "sum", **kw: Any) -> Any:
    return ranked(df, by, measure, agg, **kw)[0]


def window(df: pd.DataFrame, date: str, start: str, end: str) -> pd.DataFrame:
    """Rows whose date is in [start, end)."""
    when = pd.to_datetime(df[date])
    return df[(when >= pd.Timestamp(start)) & (when < pd.Timestamp(end))]


def year(df: pd.DataFrame, date: str, value: int) -> pd.DataFrame:
    return df[pd.to_datetime(df[date]).dt.year == value]


def fiscal_year(df: pd.DataFrame, date: str, value: int) -> pd.DataFrame:
    """Japanese fiscal year: April of ``value`` to March of the next year."""
    return window(df, date, f"{value}-04-01", f"{value + 1}-04-01")


def growth(before: pd.Series, after: pd.Series) -> float:
    """Percent change of the totals."""
    return 100.0 * (after.sum() - before.sum()) / before.sum()


def share(part: pd.Series, whole: pd.Series) -> float:
    return 100.0 * part.sum() / whole.sum()


def zscore_count(series: pd.Series, threshold: float = 3.0) -> int:
    values = series.dropna()
    z = (values - values.mean()) / values.std()
    return int((z.abs() > threshold).sum())


def iqr_count(series: pd.Series, k: float = 1.5) -> int:
    values = series.dropna()
    q1, q3 = values.quantile(0.25), values.quantile(0.75)
    spread = q3 - q1
    return int(((values < q1 - k * spread) | (values > q3 + k * spread)).sum())


def by_period(df: pd.DataFrame, date: str, measure: str | None, freq: str, agg: str = "sum") -> pd.Series:
    """Totals per period (``freq`` a pandas Period frequency: 'M', 'W', 'Q', 'D')."""
    periods = pd.to_datetime(df[date]).dt.to_period(freq)
    grouped = df.groupby(periods)
    return grouped.size() if measure is None else grouped[measure].agg(agg)


def peak(df: pd.DataFrame, date: str, measure: str | None, freq: str, agg: str = "sum", *, low: bool = False) -> Any:
    totals = by_period(df, date, measure, freq, agg)
    return totals.idxmin() if low else totals.idxmax()


def slope(df: pd.DataFrame, date: str, measure: str, freq: str = "M", agg: str = "sum") -> float:
    totals = by_period(df, date, measure, freq, agg)
    return float(np.polyfit(np.arange(len(totals)), totals.to_numpy(dtype=float), 1)[0])


def most_correlated(df: pd.DataFrame, target: str, among: list[str]) -> str:
    scores = {column: abs(df[column].corr(df[target])) for column in among if column != target}
    return max(scores, key=scores.__getitem__)


def change(before: float, after: float) -> float:
    """Percent change from one number to another (a count, a mean): 100 × (after / before − 1)."""
    return 100 * (after / before - 1)

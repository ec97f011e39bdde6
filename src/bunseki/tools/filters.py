"""Filter tools: keep the rows that meet a condition.

Rows keep their index labels, so that a filtered table still points back to the original rows.
Missing values never satisfy a comparison; like pandas, the negative operators (ne, not_in,
not_contains) therefore keep them.
"""

from __future__ import annotations

import datetime as dt
import operator as op
from collections.abc import Callable, Sequence
from typing import Any, Literal, get_args

import pandas as pd

from bunseki.errors import ToolRetry
from bunseki.tools import _checks
from bunseki.tools.result import ToolResult, counted, show

FilterOperator = Literal[
    "eq", "ne", "gt", "gte", "lt", "lte", "in", "not_in", "contains", "not_contains", "isnull", "notnull"
]
OPERATORS: tuple[str, ...] = get_args(FilterOperator)
Scalar = str | int | float | bool
Bound = float | dt.date | dt.datetime

_ORDER: dict[str, tuple[Callable[[Any, Any], Any], str, str]] = {
    "gt": (op.gt, ">", "より大きい"),
    "gte": (op.ge, "≥", "以上"),
    "lt": (op.lt, "<", "未満"),
    "lte": (op.le, "≤", "以下"),
}


def filter_data(
    frame: pd.DataFrame, *, column: str, operator: FilterOperator, value: Scalar | list[Scalar] | None = None
) -> ToolResult:
    """Keep the rows where one column meets a condition; they become the current data.
    operator is one of: eq, ne (equal, not equal); gt, gte, lt, lte (numbers, or dates written as
    ISO text such as "2024-04-01"); in, not_in (value is a list); contains, not_contains (value is
    text, matched case-insensitively as plain text); isnull, notnull (no value needed). Returns the
    filtered table and how many rows were kept.

    Equality on a text column must name values that occur: a value no row has is refused with
    the closest values the column does hold, since it is almost always a misspelling.
    """
    series = _checks.column(frame, column)
    _checks.choice(operator, OPERATORS, "operator")
    if operator in ("isnull", "notnull"):
        missing = series.isna()
        mask = missing if operator == "isnull" else ~missing
        word_en, word_ja = ("is missing", "が欠損") if operator == "isnull" else ("is not missing", "が欠損でない")
        return _kept(frame, mask, "filter_data", f"{column} {word_en}", f"{column} {word_ja}")
    if value is None:
        raise ToolRetry(f"operator {operator} needs a value; only isnull and notnull work without one.")
    if operator in ("in", "not_in"):
        values = value if isinstance(value, list) else [value]
        return _membership(frame, series, column, values, exclude=operator == "not_in", name="filter_data")
    if isinstance(value, list):
        raise ToolRetry(f"operator {operator} compares with one value; use in or not_in for a list of values.")
    if operator in ("eq", "ne"):
        return _membership(frame, series, column, [value], exclude=operator == "ne", name="filter_data")
    if operator in ("contains", "not_contains"):
        return _contains(frame, series, column, str(value), negate=operator == "not_contains")
    compare, symbol, word_ja = _ORDER[operator]
    _checks.require(
        series,
        ("number", "datetime"),
        name=column,
        needs=f"{operator} needs numbers or dates",
        instead="use eq, ne, in or contains for text, or convert it with transform_column first",
    )
    bound = _checks.comparable(series, value, name=column, argument="value")
    mask = compare(series, bound).fillna(False).astype(bool)
    return _kept(frame, mask, "filter_data", f"{column} {symbol} {show(bound)}", f"{column} が {show(bound)} {word_ja}")


def filter_by_range(
    frame: pd.DataFrame, *, column: str, min_value: Bound | None = None, max_value: Bound | None = None
) -> ToolResult:
    """Keep the rows where a number or date column lies between min_value and max_value, both included.
    Either bound may be left out. Bounds are numbers for a numeric column, and ISO dates
    ("2024-04-01") or date-times ("2024-04-01T09:00") for a date column; a max_value without a time
    includes that whole day. The kept rows become the current data. Returns the filtered table and
    how many rows were kept.

    "Until 31 March" means the whole of that day, so a date-only upper bound compares with the
    start of the next day.
    """
    series = _checks.column(frame, column)
    if min_value is None and max_value is None:
        raise ToolRetry("filter_by_range needs min_value, max_value or both.")
    kind = _checks.require(
        series,
        ("number", "datetime"),
        name=column,
        needs="filter_by_range needs a number or date column",
        instead="use filter_by_values or filter_data for text",
    )
    low = None if min_value is None else _bound(series, kind, min_value, column, "min_value")
    high = None if max_value is None else _bound(series, kind, max_value, column, "max_value")
    if low is not None and high is not None and low > high:
        raise ToolRetry(f"min_value {show(min_value)} is greater than max_value {show(max_value)}; swap them.")
    mask = pd.Series(True, index=frame.index)
    if low is not None:
        mask &= (series >= low).fillna(False).astype(bool)
    if high is not None:
        whole_day = kind == "datetime" and not isinstance(max_value, dt.datetime)
        upper = (series < high + pd.Timedelta(days=1)) if whole_day else (series <= high)
        mask &= upper.fillna(False).astype(bool)
    return _kept(frame, mask, "filter_by_range", *_range_words(column, min_value, max_value))


def filter_by_values(frame: pd.DataFrame, *, column: str, values: list[Scalar], exclude: bool = False) -> ToolResult:
    """Keep the rows whose value in column is one of values (a list); with exclude=true, drop them instead.
    The result becomes the current data. Returns the filtered table and how many rows were kept.
    """
    series = _checks.column(frame, column)
    if not values:
        raise ToolRetry("values needs at least one value to keep or exclude.")
    return _membership(frame, series, column, values, exclude=exclude, name="filter_by_values")


def _membership(
    frame: pd.DataFrame, series: pd.Series, column: str, values: Sequence[object], *, exclude: bool, name: str
) -> ToolResult:
    wanted = [_checks.comparable(series, value, name=column, argument="value") for value in values]
    matched = [value for value in wanted if series.isin([value]).any()]
    if not matched and _checks.kind_of(series) in ("text", "category") and series.notna().any():
        raise _checks.no_such_value(series, column, wanted)
    inside = series.isin(wanted)
    unmatched = [show(value) for value in wanted if value not in matched]
    if len(wanted) == 1:
        symbol = "≠" if exclude else "="
        words = (f"{column} {symbol} {show(wanted[0])}",) * 2
    elif exclude:
        words = (f"{column} is not one of {show(wanted)}", f"{column} が {show(wanted)} のいずれでもない")
    else:
        words = (f"{column} is one of {show(wanted)}", f"{column} が {show(wanted)} のいずれか")
    return _kept(frame, ~inside if exclude else inside, name, *words, unmatched=unmatched)


def _contains(frame: pd.DataFrame, series: pd.Series, column: str, text: str, *, negate: bool) -> ToolResult:
    _checks.require(
        series,
        ("text", "category"),
        name=column,
        needs="contains needs a text column",
        instead="use eq, in or a range for other columns",
    )
    found = series.astype("str").str.contains(text, case=False, regex=False).where(series.notna(), False).astype(bool)
    if negate:
        words = (f"{column} does not contain '{text}'", f"{column} に「{text}」を含まない")
    else:
        words = (f"{column} contains '{text}'", f"{column} に「{text}」を含む")
    return _kept(frame, ~found if negate else found, "filter_data", *words)


def _bound(series: pd.Series, kind: _checks.Kind, value: Bound, column: str, argument: str) -> Any:
    if kind == "datetime":
        return _checks.timestamp(series, value, name=column, argument=argument)
    if isinstance(value, dt.date):
        raise ToolRetry(f"{column} holds numbers, so {argument} must be a number, not the date {show(value)}.")
    return value


def _range_words(column: str, low: Bound | None, high: Bound | None) -> tuple[str, str]:
    if low is not None and high is not None:
        return f"{show(low)} ≤ {column} ≤ {show(high)}", f"{column} が {show(low)} 以上 {show(high)} 以下"
    if low is not None:
        return f"{column} ≥ {show(low)}", f"{column} が {show(low)} 以上"
    return f"{column} ≤ {show(high)}", f"{column} が {show(high)} 以下"


def _kept(
    frame: pd.DataFrame, mask: pd.Series, name: str, words_en: str, words_ja: str, *, unmatched: Sequence[str] = ()
) -> ToolResult:
    kept = frame.loc[mask]
    before, after = len(frame), len(kept)
    details: dict[str, Any] = {
        "rows_before": before,
        "rows_after": after,
        "affected_rows": before - after,
        "condition": words_en,
    }
    if unmatched:
        details["unmatched_values"] = list(unmatched)
    return ToolResult(
        name=name,
        frame=kept,
        details=details,
        summary_en=f"Kept {after:,} of {counted(before, 'row')} where {words_en}.",
        summary_ja=f"{words_ja} の行に絞り込みました（{before:,} 行中 {after:,} 行）。",
    )

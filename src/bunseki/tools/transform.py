"""Transform tools: change one column, add a computed one, or reorder rows.

Each returns a new frame; the input is never modified. Conversions that cannot read a value
(log of a negative number, text that is not a date) leave it missing and say how many did.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal, get_args

import numpy as np
import pandas as pd

from bunseki.errors import ToolRetry
from bunseki.tools import _checks
from bunseki.tools.expressions import evaluate
from bunseki.tools.result import ToolResult, counted, show

TransformOperation = Literal[
    "round", "abs", "log", "log10", "sqrt", "replace", "to_numeric", "to_datetime", "upper", "lower", "strip", "fillna"
]
OPERATIONS: tuple[str, ...] = get_args(TransformOperation)
PARAMS: dict[str, tuple[str, ...]] = {
    "round": ("decimals",),
    "replace": ("mapping",),
    "to_datetime": ("format",),
    "fillna": ("value", "strategy"),
}
FILL_STRATEGIES = ("mean", "median", "mode", "ffill", "bfill")

# An operation turns (column values, column name, params) into new values and a label for the summary.
Operation = Callable[[pd.Series, str, dict[str, Any]], tuple[pd.Series, str]]


def transform_column(
    frame: pd.DataFrame, *, column: str, operation: TransformOperation, params: dict[str, Any] | None = None
) -> ToolResult:
    """Replace the values of one column with transformed ones; the result becomes the current data.
    operation is one of: round (params {"decimals": 2} by default), abs, log, log10, sqrt (numbers;
    values ≤ 0 for log and < 0 for sqrt become missing), replace (params {"mapping": {"old": "new"}}),
    to_numeric (text to numbers; full-width digits and thousands separators are understood),
    to_datetime (text to dates; optional params {"format": "%Y年%m月%d日"}), upper, lower, strip
    (text), fillna (params {"value": 0} or {"strategy": "mean" | "median" | "mode" | "ffill" |
    "bfill"}). Returns the table and how many values changed or became missing.
    """
    series = _checks.column(frame, column)
    _checks.choice(operation, OPERATIONS, "operation")
    given = dict(params or {})
    allowed = PARAMS.get(operation, ())
    unexpected = sorted(set(given) - set(allowed))
    if unexpected:
        takes = f"params {_checks.listing(allowed)}" if allowed else "no params"
        raise ToolRetry(f"{operation} takes {takes}, not {_checks.listing(unexpected)}.")
    values, label = _OPERATIONS[operation](series, column, given)
    out = frame.copy()
    out[column] = values
    changed = _changed(series, values)
    lost = int((values.isna() & series.notna()).sum())
    rows = len(frame)
    lost_en, lost_ja = (f", {lost:,} became missing", f"、{lost:,} 件が欠損に") if lost else ("", "")
    return ToolResult(
        name="transform_column",
        frame=out,
        details={
            "rows_before": rows,
            "rows_after": rows,
            "column": column,
            "operation": operation,
            "dtype_before": str(series.dtype),
            "dtype_after": str(values.dtype),
            "affected_rows": changed,
            "became_missing": lost,
        },
        summary_en=f"Applied {label} to {column}: {changed:,} of {counted(rows, 'value')} changed{lost_en}.",
        summary_ja=f"{column} に {label} を適用しました（{rows:,} 件中 {changed:,} 件を変更{lost_ja}）。",
    )


def add_calculated_column(frame: pd.DataFrame, *, new_column_name: str, expression: str) -> ToolResult:
    """Add a column named new_column_name, computed row by row from other columns by expression; the
    result becomes the current data. expression uses column names (in backticks if they contain spaces
    or symbols, e.g. `Close Price`), numbers, + - * / // % **, parentheses, comparisons (== != < <= >
    >=) with and/or/not, and the functions abs, round(x, digits), log, log10, sqrt, exp, min(a, b),
    max(a, b), where(condition, a, b); e.g. "売上 / 数量" or "where(売上 > 10000, 1, 0)". Division by
    zero gives a missing value. A column of the same name is replaced. Returns the table with the new
    column.
    """
    name = new_column_name.strip()
    if not name:
        raise ToolRetry("new_column_name is empty; give the new column a name such as 単価.")
    values = evaluate(frame, expression)
    out = frame.copy()
    out[name] = values
    replaced = name in frame.columns
    rows, missing = len(frame), int(values.isna().sum())
    verb_en, verb_ja = ("Replaced", "置き換えました") if replaced else ("Added", "追加しました")
    return ToolResult(
        name="add_calculated_column",
        frame=out,
        details={
            "rows_before": rows,
            "rows_after": rows,
            "columns_before": len(frame.columns),
            "columns_after": len(out.columns),
            "new_columns": [] if replaced else [name],
            "replaced_columns": [name] if replaced else [],
            "dtype": str(values.dtype),
            "missing": missing,
        },
        summary_en=f"{verb_en} column {name} = {expression} ({missing:,} of {counted(rows, 'row')} missing).",
        summary_ja=f"計算列 {name} = {expression} を{verb_ja}（{rows:,} 行中 欠損 {missing:,} 行）。",
    )


def sort_data(
    frame: pd.DataFrame, *, columns: list[str], ascending: bool | list[bool] = True, top_n: int | None = None
) -> ToolResult:
    """Sort the rows by one or more columns; the result becomes the current data. ascending is true
    (smallest first, the default), false (largest first) or a list with one true/false per column.
    Missing values go last. With top_n, keep only the first top_n rows after sorting (e.g. the top 10
    by sales: columns ["売上"], ascending false, top_n 10). Returns the sorted table.
    """
    _checks.columns(frame, columns, argument="columns")
    orders = ascending if isinstance(ascending, list) else [ascending] * len(columns)
    if len(orders) != len(columns):
        raise ToolRetry(f"ascending has {len(orders)} values for {len(columns)} columns; give one per column.")
    if top_n is not None and top_n < 1:
        raise ToolRetry(f"top_n must be a positive number of rows, not {top_n}; leave it out to keep all rows.")
    try:
        ordered = frame.sort_values(columns, ascending=orders, kind="stable", na_position="last")
    except TypeError:
        raise ToolRetry(f"{_checks.listing(columns)} mix values that cannot be ordered; convert them first.") from None
    result = ordered if top_n is None else ordered.head(top_n)
    keys_en = ", ".join(
        f"{name} ({'ascending' if up else 'descending'})" for name, up in zip(columns, orders, strict=True)
    )
    keys_ja = "、".join(f"{name}（{'昇順' if up else '降順'}）" for name, up in zip(columns, orders, strict=True))
    top_en = f" and kept the first {len(result):,}" if top_n is not None else ""
    top_ja = f"、上位 {len(result):,} 行を残しました" if top_n is not None else ""
    return ToolResult(
        name="sort_data",
        frame=result,
        details={"rows_before": len(frame), "rows_after": len(result), "affected_rows": len(frame) - len(result)},
        summary_en=f"Sorted {counted(len(frame), 'row')} by {keys_en}{top_en}.",
        summary_ja=f"{keys_ja}で並べ替えました（{len(frame):,} 行{top_ja}）。",
    )


def _changed(before: pd.Series, after: pd.Series) -> int:
    """How many values differ, comparing values rather than dtypes ("100" and 100.0 differ, "a" does not)."""
    both_missing = before.isna() & after.isna()
    if before.dtype != after.dtype:
        before, after = before.astype(object), after.astype(object)
    differs = (before != after).fillna(True).astype(bool)
    return int((differs & ~both_missing).sum())


def _numbers(series: pd.Series, column: str, operation: str) -> pd.Series:
    kind = _checks.require(
        series,
        ("number", "boolean"),
        name=column,
        needs=f"{operation} needs numbers",
        instead="convert it with operation to_numeric first if it holds numbers as text",
    )
    return series.astype("float64") if kind == "boolean" else series


def _round(series: pd.Series, column: str, params: dict[str, Any]) -> tuple[pd.Series, str]:
    decimals = params.get("decimals", 2)
    if not isinstance(decimals, int) or isinstance(decimals, bool):
        raise ToolRetry(f"round takes params {{'decimals': 2}} with a whole number, not {decimals!r}.")
    return _numbers(series, column, "round").round(decimals), f"round ({decimals} decimals)"


def _math(operation: str) -> Operation:
    function = {"abs": np.abs, "log": np.log, "log10": np.log10, "sqrt": np.sqrt}[operation]

    def apply(series: pd.Series, column: str, params: dict[str, Any]) -> tuple[pd.Series, str]:
        numbers = _numbers(series, column, operation)
        with np.errstate(all="ignore"):
            result = pd.Series(function(numbers), index=series.index, name=series.name)
        if operation in ("log", "log10"):
            result = result.mask(numbers <= 0)  # log(0) is -inf; a missing value is more honest
        return result, operation

    return apply


def _replace(series: pd.Series, column: str, params: dict[str, Any]) -> tuple[pd.Series, str]:
    mapping = params.get("mapping")
    if not isinstance(mapping, dict) or not mapping:
        raise ToolRetry('replace needs params {"mapping": {"old value": "new value", …}}.')
    # JSON object keys are always text, so "1" must find the number 1 in a numeric column.
    keyed = {
        _checks.comparable(series, old, name=column, argument="a mapping key"): new for old, new in mapping.items()
    }
    if not series.isin(list(keyed)).any() and series.notna().any():
        raise _checks.no_such_value(series, column, list(keyed))
    return series.replace(keyed), f"replace ({len(keyed)} values)"


def _to_numeric(series: pd.Series, column: str, params: dict[str, Any]) -> tuple[pd.Series, str]:
    if _checks.kind_of(series) in ("number", "boolean"):
        return series, "to_numeric"
    # ＮＦＫＣ turns full-width digits and commas (１，２３４) into ASCII ones.
    text = series.astype("str").str.normalize("NFKC").str.replace(",", "", regex=False).str.strip()
    numbers = pd.to_numeric(text, errors="coerce")
    if numbers.isna().all() and series.notna().any():
        example = series.dropna().iloc[0]
        raise ToolRetry(f"None of the values of {column} read as numbers (e.g. '{example}'); it holds text.")
    return numbers, "to_numeric"


def _to_datetime(series: pd.Series, column: str, params: dict[str, Any]) -> tuple[pd.Series, str]:
    given = params.get("format")
    kind = _checks.kind_of(series)
    if kind == "datetime":
        return series, "to_datetime"
    if kind == "number":
        if not given:
            raise ToolRetry(f'{column} holds numbers; give params {{"format": "%Y%m%d"}} to read them as dates.')
        if not (series.dropna() % 1 == 0).all():
            raise ToolRetry(f"{column} holds numbers with decimals, which do not read as dates.")
        series = series.astype("Int64").astype("str")
    if given:
        try:
            dates = pd.to_datetime(series, format=str(given), errors="coerce")
        except ValueError as error:
            raise ToolRetry(f"format '{given}' cannot be used ({error}); write it as in strftime: %Y-%m-%d.") from None
    else:
        dates = pd.to_datetime(series, format="ISO8601", errors="coerce")
        if dates.isna().sum() > series.isna().sum():
            # Slower, element by element, but reads forms such as "Jan 5, 2024" too.
            dates = pd.to_datetime(series, format="mixed", errors="coerce")
    if dates.isna().all() and series.notna().any():
        example = series.dropna().iloc[0]
        raise ToolRetry(
            f"No value of {column} read as a date (e.g. '{example}'); "
            'give params {"format": …} such as "%Y年%m月%d日" or "%d/%m/%Y".'
        )
    return dates, "to_datetime" + (f" ({given})" if given else "")


def _text(operation: str) -> Operation:
    def apply(series: pd.Series, column: str, params: dict[str, Any]) -> tuple[pd.Series, str]:
        _checks.require(
            series, ("text", "category"), name=column, needs=f"{operation} needs text", instead="it changes only text"
        )
        return getattr(series.astype("str").str, operation)(), operation

    return apply


def _fillna(series: pd.Series, column: str, params: dict[str, Any]) -> tuple[pd.Series, str]:
    if ("value" in params) == ("strategy" in params):
        raise ToolRetry(f'fillna needs params {{"value": …}} or {{"strategy": …}} with one of {FILL_STRATEGIES}.')
    if "value" in params:
        value = _checks.comparable(series, params["value"], name=column, argument="value")
        if isinstance(series.dtype, pd.CategoricalDtype) and value not in series.cat.categories:
            series = series.cat.add_categories([value])
        return series.fillna(value), f"fillna ({show(value)})"
    strategy = _checks.choice(str(params["strategy"]), FILL_STRATEGIES, "strategy")
    if strategy in ("ffill", "bfill"):
        return (series.ffill() if strategy == "ffill" else series.bfill()), f"fillna ({strategy})"
    if strategy in ("mean", "median"):
        _numbers(series, column, f"fillna with {strategy}")
    modes = series.mode()
    if modes.empty:
        raise ToolRetry(f"{column} has no values at all, so there is no {strategy} to fill with; give a value.")
    fill = modes.iloc[0] if strategy == "mode" else series.agg(strategy)
    return series.fillna(fill), f"fillna ({strategy} {show(fill)})"


_OPERATIONS: dict[str, Operation] = {
    "round": _round,
    "abs": _math("abs"),
    "log": _math("log"),
    "log10": _math("log10"),
    "sqrt": _math("sqrt"),
    "replace": _replace,
    "to_numeric": _to_numeric,
    "to_datetime": _to_datetime,
    "upper": _text("upper"),
    "lower": _text("lower"),
    "strip": _text("strip"),
    "fillna": _fillna,
}

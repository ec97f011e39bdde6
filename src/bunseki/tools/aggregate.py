"""Aggregate tools: one row per group, or a cross table.

Groups whose key is missing are kept as a group of their own rather than silently dropped, so
that the group totals add up to the table's total.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal, get_args

import pandas as pd

from bunseki.errors import ToolRetry
from bunseki.tools import _checks
from bunseki.tools.result import ToolResult, counted, show

AggFunction = Literal["sum", "mean", "median", "count", "min", "max", "std", "nunique"]
FUNCTIONS: tuple[str, ...] = get_args(AggFunction)
FUNCTION_JA: dict[str, str] = {
    "sum": "合計",
    "mean": "平均",
    "median": "中央値",
    "count": "件数",
    "min": "最小値",
    "max": "最大値",
    "std": "標準偏差",
    "nunique": "ユニーク数",
}
PIVOT_COLUMNS = 100  # more distinct values than this make a pivot unreadable; group_by suits them

# (output column, input column, function), in the order the output columns appear.
Spec = list[tuple[str, str, str]]


def aggregate_data(
    frame: pd.DataFrame, *, group_by_columns: list[str], agg_column: str, agg_function: AggFunction
) -> ToolResult:
    """Summarise one column per group: one row per combination of group_by_columns, and the result
    becomes the current data. agg_function is one of sum, mean, median, count (non-missing values),
    min, max, std, nunique (distinct values); sum, mean, median and std need a numeric column. The
    result column is named "<agg_column>_<agg_function>", e.g. "売上_sum". An empty group_by_columns
    aggregates the whole table into one row. Returns the aggregated table.
    """
    keys = _keys(frame, group_by_columns)
    spec = [_spec(frame, agg_column, agg_function, argument="agg_function")]
    result = _aggregate(frame, keys, spec)
    output = spec[0][0]
    what_en, what_ja = f"the {agg_function} of {agg_column}", f"{agg_column} の{FUNCTION_JA[agg_function]}"
    if not keys:
        summary_en = f"Computed {what_en} over all {counted(len(frame), 'row')}: {show(result[output].iloc[0])}."
        summary_ja = f"全 {len(frame):,} 行の {what_ja}を計算しました: {show(result[output].iloc[0])}。"
    else:
        summary_en = (
            f"Computed {what_en} for each {' × '.join(keys)}: {counted(len(frame), 'row')} → "
            f"{counted(len(result), 'group')} (column {output})."
        )
        summary_ja = (
            f"{'・'.join(keys)} ごとに {what_ja}を計算しました（{len(frame):,} 行 → {len(result):,} グループ、"
            f"列 {output}）。"
        )
    return _result("aggregate_data", frame, result, spec, summary_en, summary_ja)


def group_by(
    frame: pd.DataFrame, *, group_by_columns: list[str], aggregations: dict[str, AggFunction | list[AggFunction]]
) -> ToolResult:
    """Group the rows by group_by_columns and compute several aggregates at once; the result (one row
    per group) becomes the current data. aggregations maps each column to a function or a list of
    functions among sum, mean, median, count, min, max, std, nunique, e.g. {"売上": ["sum", "mean"],
    "顧客ID": "nunique"}. Result columns are named "<column>_<function>", e.g. "売上_sum". Returns the
    grouped table.
    """
    keys = _keys(frame, group_by_columns)
    spec: Spec = []
    for name, functions in aggregations.items():
        for function in [functions] if isinstance(functions, str) else functions:
            spec.append(_spec(frame, name, function, argument=f"the function for {name}"))
    if not spec:
        raise ToolRetry(
            'aggregations needs at least one column and function, e.g. {"売上": "sum"}. '
            f"Columns: {_checks.listing(frame.columns)}."
        )
    result = _aggregate(frame, keys, spec)
    outputs = ", ".join(output for output, _, _ in spec)
    by_en = f" by {' × '.join(keys)}" if keys else ""
    by_ja = f"{'・'.join(keys)} で" if keys else "全体を"
    return _result(
        "group_by",
        frame,
        result,
        spec,
        f"Grouped {counted(len(frame), 'row')}{by_en} into {counted(len(result), 'group')} with {outputs}.",
        f"{by_ja}グループ化し {len(result):,} グループにまとめました（{len(frame):,} 行、集計列 {outputs}）。",
    )


def pivot_table(
    frame: pd.DataFrame,
    *,
    index: str,
    columns: str,
    values: str,
    aggfunc: AggFunction = "sum",
    fill_value: float = 0,
) -> ToolResult:
    """Cross-tabulate: one row per value of index, one column per value of columns, each cell the
    aggfunc of values (sum, mean, median, count, min, max, std or nunique; sum by default). Empty
    cells get fill_value (0 by default). columns should have at most 100 distinct values. The pivot
    becomes the current data. Returns the pivot table.

    Column labels become text ("2024-01-01", "(missing)") so that later tools can name them.
    """
    _checks.columns(frame, [index, columns, values], argument="index, columns and values")
    _spec(frame, values, aggfunc, argument="aggfunc")
    distinct = frame[columns].nunique()
    if distinct > PIVOT_COLUMNS:
        raise ToolRetry(
            f"{columns} has {distinct:,} distinct values, too many for pivot columns (at most {PIVOT_COLUMNS}); "
            "choose a column with fewer values, or use group_by."
        )
    pivot = frame.pivot_table(
        index=index,
        columns=columns,
        values=values,
        aggfunc=aggfunc,
        fill_value=fill_value,
        observed=True,
        dropna=False,
    )
    labels = [show(label) for label in pivot.columns]
    result = pivot.set_axis(labels, axis="columns").reset_index()
    fn_ja = FUNCTION_JA[aggfunc]
    return ToolResult(
        name="pivot_table",
        frame=result,
        details={
            "rows_before": len(frame),
            "rows_after": len(result),
            "columns_before": len(frame.columns),
            "columns_after": len(result.columns),
            "new_columns": labels,
        },
        summary_en=(
            f"Pivoted the {aggfunc} of {values} by {index} (rows) × {columns} (columns): "
            f"{counted(len(result), 'row')} × {counted(len(labels), 'value column')}."
        ),
        summary_ja=(
            f"{values} の{fn_ja}を {index}（行）× {columns}（列）でピボットしました"
            f"（{len(result):,} 行 × {len(labels):,} 列）。"
        ),
    )


def _keys(frame: pd.DataFrame, names: Sequence[str]) -> list[str]:
    return _checks.columns(frame, names, argument="group_by_columns") if names else []


def _spec(frame: pd.DataFrame, name: str, function: str, *, argument: str) -> tuple[str, str, str]:
    """Check one (column, function) pair and name its output column."""
    series = _checks.column(frame, name)
    _checks.choice(function, FUNCTIONS, argument)
    if function in ("sum", "mean", "median", "std"):
        _checks.require(
            series,
            ("number", "boolean"),
            name=name,
            needs=f"{function} needs numbers",
            instead="use count, nunique, min or max, or convert it with transform_column to_numeric",
        )
    if function in ("min", "max"):
        _checks.require(
            series,
            ("number", "boolean", "datetime", "duration", "text"),
            name=name,
            needs=f"{function} needs values in an order",
            instead="use count or nunique",
        )
    return f"{name}_{function}", name, function


def _aggregate(frame: pd.DataFrame, keys: list[str], spec: Spec) -> pd.DataFrame:
    if not keys:
        return pd.DataFrame({output: [frame[name].agg(function)] for output, name, function in spec})
    clashes = [output for output, _, _ in spec if output in keys]
    if clashes:
        raise ToolRetry(f"The result column {_checks.listing(clashes)} would clash with a grouping column.")
    named = {output: (name, function) for output, name, function in spec}
    grouped = frame.groupby(keys, dropna=False, observed=True, sort=True)
    return grouped.agg(**named).reset_index()


def _result(
    name: str, frame: pd.DataFrame, result: pd.DataFrame, spec: Spec, summary_en: str, summary_ja: str
) -> ToolResult:
    details: dict[str, Any] = {
        "rows_before": len(frame),
        "rows_after": len(result),
        "columns_before": len(frame.columns),
        "columns_after": len(result.columns),
        "new_columns": [output for output, _, _ in spec],
    }
    return ToolResult(name=name, frame=result, details=details, summary_en=summary_en, summary_ja=summary_ja)

"""Read-only tools: describe the current data without changing it.

Each returns a small table to show and JSON facts; the data state stays as it was.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from bunseki.errors import ToolRetry
from bunseki.tools import _checks
from bunseki.tools.result import ToolResult, counted, json_safe, show

TOP_VALUES = 10  # frequent values describe_column lists for a text column
MEGABYTE = 1024**2  # as pandas' DataFrame.info counts it


def summarize_data(frame: pd.DataFrame) -> ToolResult:
    """Basic statistics of the whole table: its shape, each column's dtype and missing count, and for
    numeric columns the mean, std, min, quartiles and max. Takes no arguments and does not change the
    data. Returns one row per column.
    """
    numeric_part = frame.select_dtypes("number")
    # describe() refuses a frame without columns, which a table of text alone gives.
    stats = numeric_part.describe().T.drop(columns="count") if len(numeric_part.columns) else pd.DataFrame()
    table = pd.DataFrame(
        {
            "column": [str(name) for name in frame.columns],
            "dtype": [str(dtype) for dtype in frame.dtypes],
            "non_null": frame.notna().sum().to_numpy(),
            "missing": frame.isna().sum().to_numpy(),
        }
    )
    table = table.join(stats.set_axis([str(name) for name in stats.index]), on="column")
    missing = {name: count for name, count in zip(table["column"], table["missing"], strict=True) if count}
    rows, width, numeric = len(frame), len(frame.columns), len(stats)
    total = sum(missing.values())
    missing_en = (
        f"{counted(total, 'missing value')} in {counted(len(missing), 'column')}" if missing else "no missing values"
    )
    missing_ja = f"欠損値は {len(missing)} 列に計 {total:,} 件です" if missing else "欠損値はありません"
    return ToolResult(
        name="summarize_data",
        table=table,
        details=json_safe(
            {
                "rows": rows,
                "columns": width,
                "dtypes": dict(zip(table["column"], table["dtype"], strict=True)),
                "numeric_columns": list(stats.index),
                "missing": missing,
                "numeric_summary": stats.to_dict(orient="index"),
            }
        ),
        summary_en=f"{counted(rows, 'row')} × {counted(width, 'column')} ({numeric} numeric); {missing_en}.",
        summary_ja=f"{rows:,} 行 × {width:,} 列（数値列 {numeric} 列）。{missing_ja}。",
    )


def describe_column(frame: pd.DataFrame, *, column: str) -> ToolResult:
    """Statistics of one column. For numbers: count, mean, std, min, quartiles, max, skew and missing.
    For dates: count, first and last date, span and missing. For text, categories and true/false
    values: count, distinct values, missing and the most common values with their counts. Does not
    change the data. Returns the statistics as a table.
    """
    series = _checks.column(frame, column)
    kind = _checks.kind_of(series)
    if kind in ("number", "duration"):
        return _describe_numbers(series, column, in_days=kind == "duration")
    if kind == "datetime":
        return _describe_dates(series, column)
    return _describe_values(series, column)


def value_counts(frame: pd.DataFrame, *, column: str, top_n: int = 20, normalize: bool = False) -> ToolResult:
    """Count how often each value of a column occurs, most frequent first, missing values included.
    top_n (20 by default) limits how many values are listed; normalize=true gives each value's share
    of the rows (0 to 1) instead of its count. Does not change the data. Returns a table of values.
    """
    series = _checks.column(frame, column)
    if top_n < 1:
        raise ToolRetry(f"top_n must be a positive number of values, not {top_n}.")
    counts = series.value_counts(dropna=False)
    shown = counts.head(top_n)
    measure = "share" if normalize else "count"
    if measure == column:
        measure = f"{measure}_of_rows"
    numbers = shown / len(series) if normalize else shown
    table = pd.DataFrame({column: shown.index, measure: numbers.to_numpy()})
    rows, distinct, missing = len(series), int(series.nunique()), int(series.isna().sum())
    details = {
        "rows": rows,
        "unique": distinct,
        "missing": missing,
        "shown": len(shown),
        "other_rows": int(counts.iloc[top_n:].sum()),
    }
    if counts.empty:
        summary_en, summary_ja = f"{column} has no values.", f"{column} には値がありません。"
    else:
        top, count = show(counts.index[0]), int(counts.iloc[0])
        share = f"{count / rows:.1%}"
        summary_en = (
            f"{column} has {counted(distinct, 'distinct value')}; the most common is {top} "
            f"({count:,} of {counted(rows, 'row')}, {share})."
        )
        summary_ja = (
            f"{column} には {distinct:,} 種類の値があり、最も多いのは {top} です"
            f"（{rows:,} 行中 {count:,} 行、{share}）。"
        )
    return ToolResult(name="value_counts", table=table, details=details, summary_en=summary_en, summary_ja=summary_ja)


def get_data_overview(frame: pd.DataFrame) -> ToolResult:
    """The table's structure: number of rows and columns, each column's name, dtype and kind (number,
    datetime, text, category, boolean), missing and distinct counts, which columns are numeric,
    categorical and dates, and memory use in bytes and MB. Takes no arguments and does not change the
    data. Returns one row per column.
    """
    kinds = {str(name): _checks.kind_of(frame[name]) for name in frame.columns}
    table = pd.DataFrame(
        {
            "column": list(kinds),
            "dtype": [str(dtype) for dtype in frame.dtypes],
            "kind": list(kinds.values()),
            "missing": frame.isna().sum().to_numpy(),
            "unique": frame.nunique().to_numpy(),
        }
    )
    memory = int(frame.memory_usage(deep=True).sum())
    numeric = [name for name, kind in kinds.items() if kind == "number"]
    categorical = [name for name, kind in kinds.items() if kind in ("text", "category", "boolean")]
    dates = [name for name, kind in kinds.items() if kind == "datetime"]
    rows, width, megabytes = len(frame), len(frame.columns), memory / MEGABYTE
    return ToolResult(
        name="get_data_overview",
        table=table,
        details={
            "rows": rows,
            "columns": width,
            "column_names": list(kinds),
            "dtypes": dict(zip(table["column"], table["dtype"], strict=True)),
            "numeric_columns": numeric,
            "categorical_columns": categorical,
            "datetime_columns": dates,
            "memory_bytes": memory,
            "memory_mb": round(megabytes, 3),
        },
        summary_en=(
            f"{counted(rows, 'row')} × {counted(width, 'column')}: {len(numeric)} numeric, "
            f"{len(categorical)} categorical, {len(dates)} date; {megabytes:,.2f} MB in memory."
        ),
        summary_ja=(
            f"{rows:,} 行 × {width:,} 列（数値 {len(numeric)} 列、カテゴリ {len(categorical)} 列、"
            f"日付 {len(dates)} 列）、メモリ使用量 {megabytes:,.2f} MB です。"
        ),
    )


def _describe_numbers(series: pd.Series, column: str, *, in_days: bool) -> ToolResult:
    numbers = series.dt.total_seconds() / 86_400 if in_days else series.astype("float64")
    stats: dict[str, Any] = {str(name): value for name, value in numbers.describe().items()}
    stats["skew"] = numbers.skew()
    stats["missing"] = int(series.isna().sum())
    facts = json_safe(stats)
    unit = " days" if in_days else ""
    parts_en = f"mean {show(stats['mean'])}{unit}, median {show(stats['50%'])}{unit}"
    parts_ja = f"平均 {show(stats['mean'])}{unit}、中央値 {show(stats['50%'])}{unit}"
    return ToolResult(
        name="describe_column",
        table=pd.DataFrame({"statistic": list(stats), "value": [float(value) for value in stats.values()]}),
        details={"column": column, "kind": "duration" if in_days else "number", **facts},
        summary_en=(
            f"{column}: {counted(int(stats['count']), 'value')}, {parts_en}, from {show(stats['min'])} to "
            f"{show(stats['max'])}; skew {show(stats['skew'])}; {stats['missing']:,} missing."
        ),
        summary_ja=(
            f"{column}: {int(stats['count']):,} 件、{parts_ja}、最小 {show(stats['min'])}〜最大 "
            f"{show(stats['max'])}、歪度 {show(stats['skew'])}、欠損 {stats['missing']:,} 件。"
        ),
    )


def _describe_dates(series: pd.Series, column: str) -> ToolResult:
    present = series.dropna()
    first, last = (present.min(), present.max()) if len(present) else (None, None)
    span = (last - first).days if first is not None and last is not None else None
    stats: dict[str, Any] = {
        "count": len(present),
        "missing": len(series) - len(present),
        "unique": int(present.nunique()),
        "first": first,
        "last": last,
        "span_days": span,
    }
    return ToolResult(
        name="describe_column",
        table=pd.DataFrame({"statistic": list(stats), "value": [show(value) for value in stats.values()]}),
        details={"column": column, "kind": "datetime", **json_safe(stats)},
        summary_en=(
            f"{column}: {counted(len(present), 'date')} from {show(first)} to {show(last)} ({show(span)} days); "
            f"{stats['missing']:,} missing."
        ),
        summary_ja=(
            f"{column}: {len(present):,} 件、{show(first)} から {show(last)} まで（{show(span)} 日間）、"
            f"欠損 {stats['missing']:,} 件。"
        ),
    )


def _describe_values(series: pd.Series, column: str) -> ToolResult:
    counts = series.value_counts()
    top = counts.head(TOP_VALUES)
    count, missing, distinct = int(series.notna().sum()), int(series.isna().sum()), len(counts)
    table = pd.DataFrame({"value": top.index.astype(str), "count": top.to_numpy()})
    table["share"] = table["count"] / count if count else 0.0
    common_en = f"most common {show(top.index[0])} ({int(top.iloc[0]):,})" if len(top) else "no values"
    common_ja = f"最多は {show(top.index[0])}（{int(top.iloc[0]):,} 件）" if len(top) else "値なし"
    return ToolResult(
        name="describe_column",
        table=table,
        details={
            "column": column,
            "kind": _checks.kind_of(series),
            "count": count,
            "unique": distinct,
            "missing": missing,
            "top_values": [[show(value), int(n)] for value, n in top.items()],
        },
        summary_en=f"{column}: {counted(count, 'value')}, {distinct:,} distinct, {common_en}; {missing:,} missing.",
        summary_ja=f"{column}: {count:,} 件、{distinct:,} 種類、{common_ja}、欠損 {missing:,} 件。",
    )

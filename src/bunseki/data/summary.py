"""`DataFrameInfo`: what a language model may see of a table, compact and bounded.

A summary holds per-column facts a planner needs (kind, missing and unique counts, range,
frequent values) and at most three sample rows. `DataFrameInfo.to_prompt` renders it for a
language model within a fixed character budget, however wide the table: detail is dropped
level by level (sample rows, then frequent values, then ranges) before columns are elided.
The distinct values of low-cardinality columns are kept for deterministic word-to-value
mapping, but are never rendered whole into a prompt.
"""

from __future__ import annotations

import math
from typing import Any, Literal

import pandas as pd
from pydantic import BaseModel, ConfigDict, Field

ColumnKind = Literal["number", "datetime", "category", "text", "boolean"]
SAMPLE_ROWS = 3
TOP_VALUES = 5
MAX_VALUES = 60  # distinct values kept for mapping words to values
MAX_NAMES = 3000  # distinct short values of a text column kept for finding names in questions
NAME_CHARS = 60  # longer values are sentences, not names
CELL_CHARS = 40
CODE_VALUES = 12  # a numeric column with this few values is also listed by value (Pclass 1, 2, 3)
DEFAULT_BUDGET = 6000  # characters, about 2,000-3,000 tokens for mixed Japanese and English


class ColumnInfo(BaseModel):
    """Facts about one column that help plan an analysis."""

    model_config = ConfigDict(frozen=True)

    name: str
    dtype: str
    kind: ColumnKind
    missing: int
    unique: int
    minimum: float | str | None = None
    maximum: float | str | None = None
    mean: float | None = None
    top: list[tuple[str, int]] = Field(default_factory=list, description="Most frequent values, with counts.")
    values: list[str] | None = Field(default=None, description=f"All distinct values, if ≤ {MAX_VALUES}.")
    names: list[str] | None = Field(
        default=None,
        description=f"A text column's distinct short values, if ≤ {MAX_NAMES} (names of people, countries, "
        "titles): for finding the names a question mentions. Never shown to a model.",
    )


class DataFrameInfo(BaseModel):
    """A table's shape, columns, dtypes and first rows, plus per-column facts."""

    model_config = ConfigDict(frozen=True)

    shape: tuple[int, int]
    columns: list[str]
    dtypes: dict[str, str]
    head: list[dict[str, Any]] = Field(default_factory=list, description=f"At most {SAMPLE_ROWS} rows.")
    column_info: list[ColumnInfo] = Field(default_factory=list)
    source: str | None = None

    def column(self, name: str) -> ColumnInfo | None:
        return next((info for info in self.column_info if info.name == name), None)

    def to_prompt(self, budget: int = DEFAULT_BUDGET) -> str:
        """The summary as text for a model, never longer than ``budget`` characters."""
        for detail in (3, 2, 1, 0):
            text = self._render(detail)
            if len(text) <= budget:
                return text
        return _elide(self._header(), [_column_line(info, 0) for info in self.column_info], budget)

    def _header(self) -> str:
        rows, columns = self.shape
        name = f"{self.source}: " if self.source else ""
        return f"Table {name}{rows:,} rows × {columns:,} columns"

    def _render(self, detail: int) -> str:
        lines = [self._header(), "Columns:"]
        lines += [_column_line(info, detail) for info in self.column_info]
        if detail >= 3 and self.head:
            lines.append(f"Sample rows (first {len(self.head)}):")
            lines.append(_sample_table(self.columns, self.head))
        return "\n".join(lines)


def summarize(frame: pd.DataFrame, *, source: str | None = None) -> DataFrameInfo:
    """The facts about ``frame`` that a planner needs, computed once."""
    missing = frame.isna().sum()
    infos = [_column_info(str(name), frame[name], int(missing[name])) for name in frame.columns]
    head = [
        {str(key): _cell(value) for key, value in row.items()}
        for row in frame.head(SAMPLE_ROWS).to_dict(orient="records")
    ]
    return DataFrameInfo(
        shape=(int(frame.shape[0]), int(frame.shape[1])),
        columns=[str(name) for name in frame.columns],
        dtypes={str(name): str(dtype) for name, dtype in frame.dtypes.items()},
        head=head,
        column_info=infos,
        source=source,
    )


def _column_info(name: str, column: pd.Series, missing: int) -> ColumnInfo:
    filled = column.dropna()
    unique = int(filled.nunique())
    kind = _kind(column, unique, len(filled))
    facts: dict[str, Any] = {}
    if kind == "number" and not filled.empty:
        facts = {
            "minimum": _number(filled.min()),
            "maximum": _number(filled.max()),
            "mean": _number(filled.mean()),
        }
    elif kind == "datetime" and not filled.empty:
        facts = {"minimum": _timestamp(filled.min()), "maximum": _timestamp(filled.max())}
    if kind in ("category", "text", "boolean") and not filled.empty:
        counts = filled.astype(str).value_counts()
        if kind != "text":  # free text rarely repeats: its "most frequent" values would just be raw rows
            facts["top"] = [(_truncate(str(value)), int(count)) for value, count in counts.head(TOP_VALUES).items()]
        if unique <= MAX_VALUES:
            facts["values"] = [str(value) for value in counts.index]
        elif unique <= MAX_NAMES and kind != "boolean":
            facts["names"] = [str(value) for value in counts.index if len(str(value)) <= NAME_CHARS]
    elif kind == "number" and 0 < unique <= CODE_VALUES:  # class 1/2/3, ratings: values people filter on
        facts["values"] = [_code(value) for value in sorted(filled.unique())]
    return ColumnInfo(name=name, dtype=str(column.dtype), kind=kind, missing=missing, unique=unique, **facts)


def _kind(column: pd.Series, unique: int, filled: int) -> ColumnKind:
    if pd.api.types.is_bool_dtype(column):
        return "boolean"
    if pd.api.types.is_numeric_dtype(column):
        return "number"
    if pd.api.types.is_datetime64_any_dtype(column):
        return "datetime"
    if unique <= MAX_VALUES or unique <= 0.5 * filled:
        return "category"
    return "text"


def _column_line(info: ColumnInfo, detail: int) -> str:
    line = f"- {info.name} ({info.kind}"
    line += f", {info.dtype})" if detail >= 1 else ")"
    if detail >= 1:
        facts = [f"{info.missing:,} missing"] if info.missing else []
        facts.append(f"{info.unique:,} distinct")
        if info.minimum is not None:
            facts.append(f"range {_show(info.minimum)} – {_show(info.maximum)}")
        if info.mean is not None and detail >= 2:
            facts.append(f"mean {_show(info.mean)}")
        if info.top and detail >= 2:
            facts.append("top: " + ", ".join(f"{value} ({count:,})" for value, count in info.top))
        line += ": " + "; ".join(facts)
    return line


def _sample_table(columns: list[str], rows: list[dict[str, Any]]) -> str:
    header = " | ".join(_truncate(name) for name in columns)
    body = [" | ".join(_truncate(str(row.get(name, ""))) for name in columns) for row in rows]
    return "\n".join([header, *body])


def _elide(header: str, lines: list[str], budget: int) -> str:
    """Keep as many column lines as fit, and say how many were left out."""
    kept: list[str] = [header, "Columns:"]
    used = len(header) + len("Columns:") + 2
    for number, line in enumerate(lines):
        tail = f"… and {len(lines) - number:,} more columns"
        if used + len(line) + 1 + len(tail) + 1 > budget:
            kept.append(tail)
            break
        kept.append(line)
        used += len(line) + 1
    return "\n".join(kept)[:budget]


def _code(value: Any) -> str:
    number = float(value)
    return str(int(number)) if number.is_integer() else str(number)


def _timestamp(value: Any) -> str:
    """ISO date, with the time only when there is one."""
    stamp = pd.Timestamp(value)
    return stamp.date().isoformat() if stamp == stamp.normalize() else stamp.isoformat()


def _number(value: Any) -> float | None:
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return number if math.isfinite(number) else None


def _show(value: float | str | None) -> str:
    if isinstance(value, float):
        if value.is_integer() and abs(value) < 1e15:
            return f"{int(value):,}"
        if abs(value) >= 1000:
            return f"{value:,.0f}"
        return f"{value:.2f}" if abs(value) >= 1 else f"{value:.4g}"
    return str(value)


def _cell(value: Any) -> Any:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    if isinstance(value, bool | int | float):
        return value
    if isinstance(value, pd.Timestamp):
        return _timestamp(value)
    return _truncate(str(value))


def _truncate(text: str, limit: int = CELL_CHARS) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"

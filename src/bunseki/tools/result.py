"""What a data tool returns: the new data state or a table to show, facts, and one sentence per language.

A data-changing tool (a filter, an aggregation, a new column) returns ``frame``, which becomes the
session's current data. A read-only tool (a summary, value counts) returns ``table`` and leaves the
data as it was. ``details`` holds only JSON values, so that a step log or a prompt can keep it
without a DataFrame.
"""

from __future__ import annotations

import datetime as dt
import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from bunseki.domain import Language


@dataclass(frozen=True, eq=False, kw_only=True)
class ToolResult:
    """The outcome of one data tool.

    ``details`` keys used across tools: ``rows_before`` and ``rows_after``; ``affected_rows`` (rows a
    filter removed, cells a transform changed); ``columns_before`` and ``columns_after``;
    ``new_columns``. ``eq=False`` because DataFrames have no truth value to compare by.
    """

    name: str
    frame: pd.DataFrame | None = None
    table: pd.DataFrame | None = None
    details: dict[str, Any]
    summary_en: str
    summary_ja: str

    def __post_init__(self) -> None:
        if (self.frame is None) == (self.table is None):
            raise ValueError(f"{self.name}: a ToolResult carries either a new frame or a table, exactly one")

    @property
    def changes_data(self) -> bool:
        """Whether ``frame`` is a new data state that replaces the current one."""
        return self.frame is not None

    def summary(self, language: Language) -> str:
        """The one-sentence summary in the person's language."""
        return self.summary_ja if language == "ja" else self.summary_en


def number(value: float) -> str:
    """A number for a sentence: thousands separators, no trailing zeros, and two decimals (four below 1)."""
    if isinstance(value, bool | np.bool_):
        return str(bool(value))
    if not math.isfinite(value):
        return "NaN" if math.isnan(value) else str(value)
    if float(value).is_integer():
        return f"{int(value):,}"
    decimals = 2 if abs(value) >= 1 else 4
    return f"{value:,.{decimals}f}".rstrip("0").rstrip(".")


def counted(count: int, noun: str) -> str:
    """A count with its English noun: "1 row", "2 rows", "18,300 rows"."""
    return f"{count:,} {noun}" if count == 1 else f"{count:,} {noun}s"


def show(value: object) -> str:
    """Any argument or cell value as it should read in a summary."""
    if is_missing(value):
        return "(missing)"
    if isinstance(value, int | float | np.integer | np.floating) and not isinstance(value, bool | np.bool_):
        return number(float(value))
    if isinstance(value, pd.Timestamp | dt.datetime):
        stamp = pd.Timestamp(value)
        return stamp.date().isoformat() if stamp == stamp.normalize() else stamp.isoformat(sep=" ")
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, list | tuple):
        return ", ".join(show(item) for item in value)
    return str(value)


def is_missing(value: object) -> bool:
    """Whether a single value is None, NaN, NaT or pd.NA (``pd.isna`` would broadcast over lists)."""
    if value is None or value is pd.NA or value is pd.NaT:
        return True
    return isinstance(value, float | np.floating) and math.isnan(value)


def json_safe(value: object) -> Any:
    """A value made of JSON types only: numpy scalars unwrapped, dates as ISO text, NaN as None."""
    if isinstance(value, dict):
        return {str(key): json_safe(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [json_safe(item) for item in value]
    if isinstance(value, np.datetime64 | np.timedelta64):
        value = pd.Timestamp(value) if isinstance(value, np.datetime64) else pd.Timedelta(value)
    if isinstance(value, np.generic):
        value = value.item()
    if is_missing(value) or (isinstance(value, float) and not math.isfinite(value)):
        return None
    if isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, pd.Timestamp | dt.datetime | dt.date):
        return value.isoformat()
    return str(value)

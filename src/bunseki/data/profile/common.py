"""What every column's profile is built with: the model's common fields, the most frequent values, values as text."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd

from bunseki.data.profile.arrays import Ints
from bunseki.domain.profiles import TOP_VALUES, VALUE_CHARS, ColumnProfile, ProfileKind, TopValue


def _column(
    name: str,
    kind: ProfileKind,
    column: pd.Series,
    missing: int,
    rows: int,
    distinct: int,
    top_values: list[TopValue],
    facts: dict[str, Any],
) -> ColumnProfile:
    return ColumnProfile(
        name=name,
        kind=kind,
        dtype=str(column.dtype),
        missing=missing,
        missing_pct=round(100 * missing / rows, 4) if rows else 0.0,
        distinct=distinct,
        top_values=top_values,
        **facts,
    )


def _top_positions(counts: Ints) -> list[int]:
    """Positions of the largest counts, largest first; which of equal counts make the cut is up to numpy."""
    if len(counts) > TOP_VALUES and counts.max() == 1:  # all values unique: any five are the top five
        return list(range(TOP_VALUES))
    if len(counts) > TOP_VALUES:
        candidates = np.argpartition(-counts, TOP_VALUES - 1)[:TOP_VALUES]
    else:
        candidates = np.arange(len(counts))
    ranked = sorted(candidates.tolist(), key=lambda at: (-counts[at], at))
    return ranked[:TOP_VALUES]


def _finite(value: float | np.floating[Any] | None) -> float | None:
    if value is None:
        return None
    number = float(value)
    return number if math.isfinite(number) else None


def _show_number(value: float, integral: bool) -> str:
    return str(int(value)) if integral or (float(value).is_integer() and abs(value) < 1e15) else repr(float(value))


def _show(value: object) -> str:
    text = _iso(value) if isinstance(value, pd.Timestamp) else str(value)
    return text if len(text) <= VALUE_CHARS else text[: VALUE_CHARS - 1] + "…"


def _iso(value: Any) -> str:
    """ISO date, with the time only when there is one."""
    stamp = pd.Timestamp(value)
    return stamp.date().isoformat() if stamp == stamp.normalize() else stamp.isoformat()

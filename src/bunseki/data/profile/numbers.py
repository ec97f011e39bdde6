"""The statistics of a numeric column, from its one sort: moments, quartiles, zeros and outliers."""

from __future__ import annotations

import math
from typing import Any, Final

import numpy as np
import pandas as pd

from bunseki.data.profile.arrays import Floats, _dot
from bunseki.data.profile.common import _column, _finite, _show_number, _top_positions
from bunseki.data.profile.kinds import _number_kind
from bunseki.data.profile.order import _Order
from bunseki.domain.profiles import ColumnProfile, TopValue

IQR_FENCE: Final = 1.5


def _numeric_profile(name: str, column: pd.Series, order: _Order, values: Floats, rows: int) -> ColumnProfile:
    filled = len(values)
    integral = pd.api.types.is_integer_dtype(column)
    kind = _number_kind(name, order, values, integral)
    facts: dict[str, Any] = {}
    if filled and kind == "numeric":
        with np.errstate(invalid="ignore", over="ignore"):  # infinities make NaN (reported as None), not noise
            q1, median, q3 = (_quantile(values, share) for share in (0.25, 0.5, 0.75))
            spread = q3 - q1
            low = np.searchsorted(values, q1 - IQR_FENCE * spread, side="left")
            high = filled - np.searchsorted(values, q3 + IQR_FENCE * spread, side="right")
            zeros = np.searchsorted(values, 0.0, side="right") - np.searchsorted(values, 0.0, side="left")
            mean, std, skew = _moments(values)
        facts = {
            "mean": mean,
            "std": std,
            "min": _finite(values[0]),
            "p25": _finite(q1),
            "median": _finite(median),
            "p75": _finite(q3),
            "max": _finite(values[-1]),
            "skew": skew,
            "zeros": int(zeros),
            "outliers": int(low + high),
        }
    elif filled:  # identifiers: their range, not their moments
        facts = {"min": _finite(values[0]), "max": _finite(values[-1])}
    lengths = order.run_lengths()
    top = _top_positions(lengths)
    top_values = [
        TopValue(value=_show_number(values[order.starts[at]], integral), count=int(lengths[at])) for at in top
    ]
    return _column(name, kind, column, rows - filled, rows, order.distinct, top_values, facts)


def _quantile(ordered: Floats, share: float) -> float:
    """The ``share`` quantile of sorted values, interpolated linearly (pandas' and numpy's default)."""
    position = (len(ordered) - 1) * share
    below = math.floor(position)
    above = min(below + 1, len(ordered) - 1)
    fraction = position - below
    return float(ordered[below] + (ordered[above] - ordered[below]) * fraction)


def _moments(values: Floats) -> tuple[float | None, float | None, float | None]:
    """Mean, sample standard deviation and adjusted skewness, by pandas' formulas."""
    count = len(values)
    mean = float(values.mean())
    centred = values - mean
    squares = centred * centred
    m2 = float(squares.sum())
    m3 = _dot(squares, centred)
    std = math.sqrt(m2 / (count - 1)) if count > 1 else None
    if count < 3:
        skew = None
    elif m2 <= 1e-14 * max(1.0, mean * mean) * count:  # constant, up to rounding: pandas says 0
        skew = 0.0
    else:
        skew = (count * (count - 1) ** 0.5 / (count - 2)) * (m3 / m2**1.5)
    return _finite(mean), _finite(std), _finite(skew)

"""The profile of a column that is not numbers: its kind and frequent values, and for dates their range and step.

Such columns are factorized once; the counts of their distinct values come from those codes.
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np
import numpy.typing as npt
import pandas as pd

from bunseki.data.profile.common import _column, _iso, _show, _top_positions
from bunseki.data.profile.kinds import _text_kind
from bunseki.domain.profiles import ColumnProfile, ProfileKind, TopValue

FREQUENCY_SHARE: Final = 0.5  # dates have a frequency when at least this share of steps is the same
_FREQUENCY_SAMPLE: Final = 10_000  # distinct dates pandas infers a frequency from


def _other_profile(name: str, column: pd.Series, codes: npt.NDArray[Any], uniques: Any, rows: int) -> ColumnProfile:
    present = codes[codes >= 0]
    filled = len(present)
    counts = np.bincount(present, minlength=len(uniques)).astype("int64")
    index = pd.Index(uniques)
    if pd.api.types.is_bool_dtype(column):
        kind: ProfileKind = "boolean"
    elif pd.api.types.is_datetime64_any_dtype(column):
        kind = "datetime"
    elif isinstance(column.dtype, pd.CategoricalDtype):
        kind = "categorical"
    else:
        kind = _text_kind(name, index, filled)
    facts: dict[str, Any] = {}
    if kind == "datetime" and len(index):
        dates = _sorted_dates(pd.DatetimeIndex(index))
        facts = {"min": _iso(dates[0]), "max": _iso(dates[-1]), "frequency": _frequency(dates)}
    top_values = [TopValue(value=_show(index[at]), count=int(counts[at])) for at in _top_positions(counts)]
    return _column(name, kind, column, rows - filled, rows, len(index), top_values, facts)


def _sorted_dates(dates: pd.DatetimeIndex) -> pd.DatetimeIndex:
    """Distinct dates in ascending order, sorted as integers (NaT is never a distinct value)."""
    stamps = np.sort(dates.asi8).view(f"M8[{dates.unit}]")  # UTC for dates with a time zone
    return pd.DatetimeIndex(stamps) if dates.tz is None else pd.DatetimeIndex(stamps, tz="UTC").tz_convert(dates.tz)


def _frequency(dates: pd.DatetimeIndex) -> str | None:
    """The regular step between the first distinct dates, or the step most of them take; None if irregular."""
    if len(dates) < 3:
        return None
    regular = pd.DatetimeIndex(dates[:_FREQUENCY_SAMPLE], freq="infer").freq  # pandas' infer_freq
    if regular is not None:
        return regular.freqstr
    if _at_midnight(dates[:_FREQUENCY_SAMPLE]) and _at_midnight(dates):  # the sample refuses cheaply
        if bool((dates.day == 1).all()):
            return "YS" if bool((dates.month == 1).all()) else "MS"
        if bool(dates.is_month_end.all()):
            return "ME"
    steps = np.diff(dates.asi8)
    codes, uniques = pd.factorize(steps)
    counts = np.bincount(codes)
    if counts.max() < FREQUENCY_SHARE * len(steps):
        return None
    step = pd.Timedelta(int(uniques[counts.argmax()]), unit=dates.unit)
    days, rest = divmod(step, pd.Timedelta(days=1))
    if days and not rest:  # pandas would write a day as "24h"
        return "D" if days == 1 else f"{days}D"
    return pd.tseries.frequencies.to_offset(step).freqstr


def _at_midnight(dates: pd.DatetimeIndex) -> bool:
    return bool((dates == dates.normalize()).all())

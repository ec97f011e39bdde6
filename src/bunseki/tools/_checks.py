"""Checking tool arguments against a frame, with messages a language model can act on.

Every refusal is a `ToolRetry` that names the valid choices: the closest columns and the full
list, the operators or functions allowed, or what a column holds and which operators suit it.
"""

from __future__ import annotations

import datetime as dt
import difflib
from collections.abc import Iterable, Sequence
from typing import Literal

import pandas as pd

from bunseki.errors import ToolRetry
from bunseki.tools.result import show

Kind = Literal["number", "datetime", "boolean", "category", "text", "duration"]
HOLDS: dict[Kind, str] = {
    "number": "numbers",
    "datetime": "dates",
    "boolean": "true/false values",
    "category": "categories",
    "text": "text",
    "duration": "durations",
}
Comparable = pd.Timestamp | float | bool | str  # a value converted to what a column holds
LISTED = 40  # names listed in a message; a very wide table is summarised as "… and N more"


def kind_of(series: pd.Series) -> Kind:
    """What a column holds, in the words used by messages and summaries."""
    dtype = series.dtype
    if pd.api.types.is_bool_dtype(dtype):
        return "boolean"
    if pd.api.types.is_datetime64_any_dtype(dtype):
        return "datetime"
    if pd.api.types.is_timedelta64_dtype(dtype):
        return "duration"
    if pd.api.types.is_numeric_dtype(dtype):
        return "number"
    if isinstance(dtype, pd.CategoricalDtype):
        return "category"
    return "text"


def listing(names: Iterable[object]) -> str:
    """Names quoted and comma-separated, cut after `LISTED` of them."""
    quoted = [f"'{name}'" for name in names]
    if len(quoted) > LISTED:
        return ", ".join(quoted[:LISTED]) + f", … and {len(quoted) - LISTED:,} more"
    return ", ".join(quoted)


def unknown(what: str, name: str, options: Sequence[str]) -> ToolRetry:
    """A refusal of an unknown name, suggesting the closest options and listing all of them."""
    closest = difflib.get_close_matches(name, options, n=3, cutoff=0.5)
    closest += [option for option in options if option.casefold() == name.casefold() and option not in closest]
    hint = f" Did you mean {listing(closest)}?" if closest else ""
    return ToolRetry(f"There is no {what} '{name}'.{hint} Valid {what}s: {listing(options)}.")


def column(frame: pd.DataFrame, name: str) -> pd.Series:
    """The column called ``name``, or a refusal naming the closest columns."""
    if name not in frame.columns:
        raise unknown("column", name, [str(label) for label in frame.columns])
    if list(frame.columns).count(name) > 1:
        raise ToolRetry(f"The table has several columns named '{name}'; rename them before using this tool.")
    return frame[name]


def columns(frame: pd.DataFrame, names: Sequence[str], *, argument: str) -> list[str]:
    """Several distinct existing column names, at least one."""
    if not names:
        raise ToolRetry(f"{argument} needs at least one column. Columns: {listing(frame.columns)}.")
    for name in names:
        column(frame, name)
    if len(set(names)) < len(names):
        raise ToolRetry(f"{argument} names a column twice: {listing(names)}.")
    return list(names)


def choice(value: str, choices: Sequence[str], argument: str) -> str:
    """``value`` if it is one of ``choices``, else a refusal that lists them."""
    if value not in choices:
        raise ToolRetry(f"{argument} must be one of {listing(choices)}, not '{value}'.")
    return value


def timestamp(series: pd.Series, value: object, *, name: str, argument: str) -> pd.Timestamp:
    """``value`` (an ISO date or date-time) as a timestamp comparable with the datetime column."""
    if not isinstance(value, str | dt.date):
        raise ToolRetry(
            f"{name} holds dates, so {argument} must be a date such as '2024-01-31' or '2024-01-31 09:00', "
            f"not {show(value)}."
        )
    try:
        stamp = pd.Timestamp(value)
    except ValueError:
        raise ToolRetry(f"{argument} '{value}' is not a date; write dates as ISO text such as '2024-01-31'.") from None
    zone = getattr(series.dt, "tz", None)
    if zone is not None and stamp.tzinfo is None:
        return stamp.tz_localize(zone)
    if zone is None and stamp.tzinfo is not None:
        return stamp.tz_convert(None)
    return stamp


def comparable(series: pd.Series, value: object, *, name: str, argument: str) -> Comparable:
    """``value`` converted to what the column holds, so that comparing them is meaningful."""
    kind = kind_of(series)
    if kind == "datetime":
        return timestamp(series, value, name=name, argument=argument)
    if kind == "number":
        if isinstance(value, int | float) and not isinstance(value, bool):
            return value
        try:
            return float(str(value).replace(",", ""))
        except ValueError:
            raise ToolRetry(f"{name} holds numbers, so {argument} must be a number, not '{value}'.") from None
    if kind == "boolean":
        truth = {"true": True, "false": False, "1": True, "0": False}.get(str(value).strip().lower())
        if truth is None:
            raise ToolRetry(f"{name} holds true/false values, so {argument} must be true or false, not '{value}'.")
        return truth
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return value if isinstance(value, str) else str(value)


def require(series: pd.Series, kinds: Sequence[Kind], *, name: str, needs: str, instead: str) -> Kind:
    """The column's kind if it is one of ``kinds``; otherwise a refusal that suggests ``instead``."""
    kind = kind_of(series)
    if kind not in kinds:
        raise ToolRetry(f"{needs} but {name} holds {HOLDS[kind]}; {instead}.")
    return kind


def no_such_value(series: pd.Series, column: str, wanted: Sequence[object]) -> ToolRetry:
    """A refusal of values no row holds, with the closest and the most common values of the column."""
    held = [str(value) for value in series.dropna().unique()[:10_000]]
    closest = difflib.get_close_matches(str(wanted[0]), held, n=3, cutoff=0.4)
    hint = f" Closest values: {listing(closest)}." if closest else ""
    common = series.value_counts().index[:10]
    return ToolRetry(
        f"No row has {column} = {show(list(wanted))}.{hint} Most common values of {column}: "
        f"{listing(common)} ({series.nunique():,} distinct)."
    )

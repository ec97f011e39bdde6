"""Durations a question asks for: between two date columns, or from a date column to a given day.

"在任日数" over a table with a start and an end date is end − start; "2019年1月1日時点で登録から
何日" is that day − the registration date; "as of 2020-01-01, how old" counts years. The duration
becomes a derived column (days, or years when years are asked), which any statistic, condition or
grouping then uses like another measure.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from typing import Final, Literal

from bunseki.brain.analyst.offline.columns import Mention
from bunseki.brain.analyst.offline.plan import Derived, Event, Filter, Span
from bunseki.data.summary import DataFrameInfo
from bunseki.domain import Language

_DAY: Final = r"(?P<y>(?:18|19|20)\d{2})\s*(?:[-/.]|年)\s*(?P<m>\d{1,2})\s*(?:[-/.]|月)\s*(?P<d>\d{1,2})\s*日?"
_AS_OF: Final = re.compile(
    rf"{_DAY}\s*(?:の)?\s*(?:時点|現在|基準|時に|当時)|\b(?:as of|as at|on)\s+{_DAY.replace('?P<', '?P<a')}",
    re.IGNORECASE,
)
_DURATION: Final = re.compile(
    r"何日|日数|何年|年数|何か月|何ヶ月|何カ月|期間|経(?:っ|過)|在任|在職|在籍|勤続|たって|経つ|"
    r"how (?:many|much) (?:days|years|months|time)|how long|duration|\bdays\b|\btenure\b|elapsed|\bsince\b",
    re.IGNORECASE,
)
_YEARS: Final = re.compile(r"何年|年数|\byears?\b|\bhow old\b|歳", re.IGNORECASE)
_MONTHS_ASKED: Final = re.compile(r"何か月|何ヶ月|何カ月|\bmonths?\b", re.IGNORECASE)
# Which of two date columns starts the span: its name says so, else the one whose dates are earlier.
START_NAME: Final = re.compile(
    r"開始|始|就任|入社|入会|登録|加入|着工|start|begin|from|join|open|hire|birth|生年|誕生", re.I
)


@dataclass(frozen=True)
class Duration:
    """The duration column to add, and the spans of the question that named it."""

    derived: Derived
    spans: list[tuple[int, int]]
    unit: str  # "days", "months" or "years"


_POINT_IN_TIME: Final = re.compile(r"時点|現在|基準|\bas (?:of|at)\b", re.IGNORECASE)
END_NAME: Final = re.compile(
    r"終了|終|退会|退職|解約|退任|離任|卒業|完了|end|leave|left|exit|cancel|churn|close|finish", re.I
)
_ACTIVE: Final = frozenset({"有効", "在籍", "在籍中", "アクティブ", "現役", "継続", "継続中", "active", "current"})


def as_of_filter(text: str, info: DataFrameInfo) -> tuple[Filter, tuple[int, int]] | None:
    """Rows that were current on a day the question names as a point in time (2024年12月31日時点の会員,
    active as of 2024-12-31): begun on or before it, not ended by it, by the table's start and end dates."""
    found = _AS_OF.search(text)
    if found is None or not _POINT_IN_TIME.search(found.group()) or (day := _day(found)) is None:
        return None  # "on 2024-03-15" is that day's rows, not the rows current on it
    dated = [c for c in info.column_info if c.kind == "datetime"]
    starts = [c.name for c in dated if START_NAME.search(c.name)] or [c.name for c in dated[:1]]
    ends = [c.name for c in dated if END_NAME.search(c.name) and c.name not in starts]
    if not starts:
        return None
    shown = found.group().strip()
    return Filter(
        column=starts[0], op="active_on", value=day.isoformat(), other=ends[0] if ends else None, text=shown
    ), found.span()


def restates_active(value: object) -> bool:
    """A value that says a row is current (有効, active): what an as-of condition decides instead."""
    return str(value).strip().casefold() in _ACTIVE


def read_duration(
    text: str, lowered: str, info: DataFrameInfo, mentions: list[Mention], language: Language
) -> Duration | None:
    """The duration ``text`` asks for, if it asks for one and the table has the dates for it."""
    dated = [c for c in info.column_info if c.kind == "datetime"]
    if not dated or not _DURATION.search(lowered):
        return None
    unit = "years" if _YEARS.search(lowered) else "months" if _MONTHS_ASKED.search(lowered) else "days"
    named = [m.column for m in mentions if m.column in {c.name for c in dated}]
    as_of = _AS_OF.search(text)
    if as_of is not None:
        day = _day(as_of)
        if day is None:
            return None
        column = named[0] if named else (dated[0].name if len(dated) == 1 else None)
        if column is None:
            return None
        span = f"(pd.Timestamp({day.isoformat()!r}) - pd.to_datetime(data[{column!r}]))"
        name = _name(language, unit, since=column, day=day)
        return Duration(
            Derived(name=name, left=column, op="-", right=column, expression=_in(span, unit)), [as_of.span()], unit
        )
    if len(dated) < 2:
        return None
    pair = [c for c in dated if c.name in named] if len(named) >= 2 else list(dated[:2])
    if len(pair) < 2:
        pair = list(dated[:2])
    first, second = pair[0], pair[1]
    starts = [c for c in (first, second) if START_NAME.search(c.name)]
    if len(starts) == 1:
        start = starts[0]
        end = second if start is first else first
    else:
        start, end = sorted((first, second), key=lambda c: str(c.minimum))
    span = f"(pd.to_datetime(data[{end.name!r}]) - pd.to_datetime(data[{start.name!r}]))"
    name = _name(language, unit, since=start.name, until=end.name)
    return Duration(Derived(name=name, left=end.name, op="-", right=start.name, expression=_in(span, unit)), [], unit)


def _in(span: str, unit: str) -> str:
    days = f"{span}.dt.days"
    if unit == "years":
        return f"{days} / 365.25"
    if unit == "months":
        return f"{days} / (365.25 / 12)"
    return days


def _name(language: Language, unit: str, *, since: str, until: str | None = None, day: date | None = None) -> str:
    words = {"days": ("日数", "days"), "months": ("月数", "months"), "years": ("年数", "years")}[unit]
    if language == "ja":
        end = until or (day.isoformat() if day else "")
        return f"{since}から{end}までの{words[0]}"
    end = until or (day.isoformat() if day else "")
    return f"{words[1]} from {since} to {end}"


def _day(match: re.Match[str]) -> date | None:
    groups = match.groupdict()
    year = groups.get("y") or groups.get("ay")
    month = groups.get("m") or groups.get("am")
    day = groups.get("d") or groups.get("ad")
    try:
        return date(int(year or 0), int(month or 0), int(day or 0))
    except ValueError:
        return None


# --- the time between two moments of the rows ---------------------------------------------------

EventKind = Literal["first", "last", "max", "min"]
SpanUnit = Literal["days", "weeks", "months", "years"]
_EVENTS: Final[tuple[tuple[EventKind, re.Pattern[str]], ...]] = (
    (
        "max",
        re.compile(
            r"最高値|最高|最大|ピーク|頂点|(?:一番|最も|いちばん)(?:高|多|大き)|\bhighest\b|\bmaximum\b|"
            r"\bpeak(?:ed|s)?\b|\blargest\b|\bmax\b",
            re.IGNORECASE,
        ),
    ),
    (
        "min",
        re.compile(
            r"最安値|最安|最低|最小|底|(?:一番|最も|いちばん)(?:低|少な|小さ|安)|\blowest\b|\bminimum\b|"
            r"\bsmallest\b|\bcheapest\b|\bmin\b|\bbottom(?:ed)?\b",
            re.IGNORECASE,
        ),
    ),
    ("first", re.compile(r"最初|初めて|\bfirst\b|\bearliest\b", re.IGNORECASE)),
    ("last", re.compile(r"最後|最新|\blast\b|\blatest\b|\bmost recent\b|\bfinal\b", re.IGNORECASE)),
)
_SPAN_UNIT: Final[tuple[tuple[SpanUnit, re.Pattern[str]], ...]] = (
    ("years", re.compile(r"何年|\byears\b", re.IGNORECASE)),
    ("months", re.compile(r"何か月|何ヶ月|何カ月|何ヵ月|\bmonths\b", re.IGNORECASE)),
    ("weeks", re.compile(r"何週|\bweeks\b", re.IGNORECASE)),
)


_NEAR: Final = 20  # characters between an extreme's word and the measure it qualifies
_YEAR_NAMED: Final = re.compile(r"year|yr|年", re.IGNORECASE)


def moments(info: DataFrameInfo) -> list[str]:
    """The columns that date the rows: dates, and whole-number years (oscar_yr, 年度)."""
    found = []
    for column in info.column_info:
        low, high = column.minimum, column.maximum
        year_like = (
            column.kind == "number"
            and _YEAR_NAMED.search(column.name) is not None
            and isinstance(low, int | float)
            and isinstance(high, int | float)
            and 1800 <= low <= high <= 2200
            and float(low).is_integer()
        )
        if column.kind == "datetime" or year_like:
            found.append(column.name)
    return found


def read_span(lowered: str, info: DataFrameInfo, mentions: list[Mention]) -> tuple[Span, list[tuple[int, int]]] | None:
    """The time between two moments the question names — the first and the last row, or the rows where
    a measure is largest and smallest — with the spans that named them; None unless exactly two."""
    inside = [(m.start, m.end) for m in mentions]  # 最高 in 最高気温 names a column, not a moment
    found: list[tuple[int, int, EventKind]] = []
    for kind, pattern in _EVENTS:
        for match in pattern.finditer(lowered):
            if not any(s <= match.start() < e for s, e in inside):
                found.append((match.start(), match.end(), kind))
    found.sort()
    if len(found) != 2:
        return None
    numeric = [m for m in mentions if (c := info.column(m.column)) is not None and c.kind == "number"]
    measures = [c.name for c in info.column_info if c.kind == "number"]
    events = []
    for start, end, kind in found:

        def gap(m: Mention, start: int = start, end: int = end) -> int:
            return min(abs(m.start - end), abs(start - m.end))

        if kind in ("first", "last"):
            events.append(Event(kind=kind))
        elif near := [m for m in numeric if gap(m) <= _NEAR]:
            events.append(Event(kind=kind, column=min(near, key=gap).column))
        elif len(measures) == 1 and not numeric:  # 最安値から最高値まで over a table of one measure
            events.append(Event(kind=kind, column=measures[0]))
        else:
            return None
    unit: SpanUnit = next((name for name, pattern in _SPAN_UNIT if pattern.search(lowered)), "days")
    if _AFTER_THE_SECOND.search(lowered):
        events.reverse()  # 最後の検査は最初の検査の何日後: from the second named to the first
    return Span(start=events[0], end=events[1], unit=unit), [(s, e) for s, e, _ in found]


# 「AはBの何日後」: A comes after B, so the span runs from B to A
_AFTER_THE_SECOND: Final = re.compile(r"の\s*何\s*(?:日|週|か月|ヶ月|カ月|ヵ月|年)\s*(?:間)?\s*後")

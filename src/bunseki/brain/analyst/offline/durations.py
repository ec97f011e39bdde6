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
from typing import Final

from bunseki.brain.analyst.offline.columns import Mention
from bunseki.brain.analyst.offline.plan import Derived
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
_START: Final = re.compile(
    r"開始|始|就任|入社|入会|登録|加入|着工|start|begin|from|join|open|hire|birth|生年|誕生", re.I
)


@dataclass(frozen=True)
class Duration:
    """The duration column to add, and the spans of the question that named it."""

    derived: Derived
    spans: list[tuple[int, int]]
    unit: str  # "days", "months" or "years"


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
    starts = [c for c in (first, second) if _START.search(c.name)]
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

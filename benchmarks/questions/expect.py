"""What a question asks for, computed by pandas, and the check that an answer states it.

An expected answer has a form (a count, a number, a percentage, a name, N names, a period or a
direction) and a value the harness computes from the generated table. The checker accepts an
answer only when it states the asked quantity in the asked form:

- a count: the exact integer appears;
- a number: a number within the tolerance appears (1 % relative by default);
- a percentage: a number followed by % within 0.15 points (or 1 %), so a bare total is refused;
- a name ("which"): the first of the column's values the answer mentions is the winner;
- N names ("top 3"): the first N of the column's values it mentions are exactly the expected ones;
- a period: the first date it mentions (other than the data's own first and last date) falls in it;
- a direction: it says up (増加, increasing…) and not down, or the reverse;
- a date: the first full date it mentions (other than the data's own first and last date, unless
  that is the answer) is the expected day;
- yes or no: it says yes (はい, あります, いる…) and not no, or the reverse.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

import pandas as pd

Form = Literal["count", "number", "percent", "name", "names", "period", "direction", "date", "yesno"]

_NUMBER = re.compile(
    r"(?<![0-9A-Za-z.])(?P<sign>[-−]?)(?P<digits>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)"
    r"(?P<units>[万億]?)(?P<percent>\s?[%％]|\s?percent|\s?ポイント)?"
)
_DATE = re.compile(
    r"(?P<y>(?:18|19|20)\d{2})\s*(?:[-/.]|年)\s*(?P<m>\d{1,2})(?:\s*(?:[-/.]|月)\s*(?P<d>\d{1,2})日?|\s*月)?(?!\d)"
)
_QUARTER = re.compile(r"(?P<y>(?:19|20)\d{2})\s*(?:年\s*)?(?:度\s*)?-?\s*(?:Q|第)\s*(?P<q>[1-4])", re.I)
_UP = re.compile(r"増加|上昇|伸び|右肩上がり|増えて|増えた|増え|高まって|increas|upward|rising|grow|going up", re.I)
_YES = re.compile(
    r"(?<![A-Za-z])yes(?![A-Za-z])|はい|あります|あった|います|いた|存在します|存在する|該当します|該当する", re.I
)
_NO = re.compile(
    r"(?<![A-Za-z])no(?![A-Za-z])|(?<![A-Za-z])none(?![A-Za-z])|いいえ|ありません|なかった|いません|いなかった"
    r"|存在しません|存在しない|該当しません|該当なし|該当する.{0,6}(?:は|が)0|(?<![A-Za-z])not(?![A-Za-z])",
    re.I,
)
_DOWN = re.compile(r"減少|下降|低下|右肩下がり|減って|減った|減り|decreas|downward|declin|falling|going down", re.I)


@dataclass(frozen=True)
class Expected:
    form: Form
    value: Any
    candidates: tuple[str, ...] = ()
    tolerance: float = 0.01
    absolute: bool = False
    bounds: tuple[pd.Timestamp, pd.Timestamp] | None = None

    def shown(self) -> str:
        if self.form == "period" and self.bounds:
            return f"{self.bounds[0].date()}..{self.bounds[1].date()}"
        if isinstance(self.value, float):
            return f"{self.value:.4g}"
        return str(self.value)


Compute = Callable[[pd.DataFrame], Expected]


@dataclass(frozen=True)
class Question:
    text: str
    category: str
    expect: Compute
    table: str = ""
    notes: dict[str, str] = field(default_factory=dict)


# --- forms -----------------------------------------------------------------------------------


def count(fn: Callable[[pd.DataFrame], Any]) -> Compute:
    return lambda df: Expected("count", int(fn(df)))


def number(fn: Callable[[pd.DataFrame], Any], tolerance: float = 0.01, *, absolute: bool = False) -> Compute:
    return lambda df: Expected("number", float(fn(df)), tolerance=tolerance, absolute=absolute)


def percent(fn: Callable[[pd.DataFrame], Any], *, magnitude: bool = False) -> Compute:
    """A percentage; ``magnitude`` when the question gives the sign itself (何％少ない, how much lower)."""
    return lambda df: Expected("percent", float(fn(df)), absolute=magnitude)


def name(fn: Callable[[pd.DataFrame], Any], among: str | tuple[str, ...]) -> Compute:
    """The winner among a column's values, or among ``among`` itself when it is a tuple (column names)."""
    return lambda df: Expected(
        "name", str(fn(df)), candidates=among if isinstance(among, tuple) else _values(df, among)
    )


def names(fn: Callable[[pd.DataFrame], Any], among: str) -> Compute:
    return lambda df: Expected("names", tuple(str(v) for v in fn(df)), candidates=_values(df, among))


def period(fn: Callable[[pd.DataFrame], Any], grain: str, date: str) -> Compute:
    """The period (a pandas Period of ``grain``: 'M', 'W', 'Q', 'Y', 'D') that ``fn`` picks."""

    def compute(df: pd.DataFrame) -> Expected:
        chosen = pd.Period(fn(df), freq=grain)
        low, high = pd.to_datetime(df[date]).min(), pd.to_datetime(df[date]).max()
        return Expected(
            "period", str(chosen), bounds=(chosen.start_time, chosen.end_time), candidates=(str(low), str(high))
        )

    return compute


def direction(fn: Callable[[pd.DataFrame], float]) -> Compute:
    return lambda df: Expected("direction", "up" if fn(df) > 0 else "down")


def date(fn: Callable[[pd.DataFrame], Any], column: str) -> Compute:
    """One day (the date of a row, say), among the days of ``column``."""

    def compute(df: pd.DataFrame) -> Expected:
        days = pd.to_datetime(df[column])
        return Expected(
            "date", pd.Timestamp(fn(df)).normalize(), candidates=(str(days.min().date()), str(days.max().date()))
        )

    return compute


def yesno(fn: Callable[[pd.DataFrame], Any]) -> Compute:
    return lambda df: Expected("yesno", "yes" if bool(fn(df)) else "no")


def _values(df: pd.DataFrame, column: str) -> tuple[str, ...]:
    """The column's values an answer may name; a "-" in a name column would match any dash."""
    values = (str(v) for v in df[column].dropna().unique())
    return tuple(v for v in values if any(c.isalnum() for c in v))


# --- checking --------------------------------------------------------------------------------


def check(expected: Expected, answer: str | None) -> bool:
    text = _english_dates(unicodedata.normalize("NFKC", answer or ""))
    if expected.form == "count":
        return any(not pct and value == expected.value for value, pct in _numbers(text))
    if expected.form == "number":
        return any(not pct and _close(value, expected) for value, pct in _numbers(text))
    if expected.form == "percent":
        if expected.absolute:  # "-48.3%（減少）" and "48.3% less" both answer "何％少ない"
            return any(pct and _close_percent(abs(value), expected.value, text) for value, pct in _numbers(text))
        return any(pct and _close_percent(value, expected.value, text) for value, pct in _numbers(text))
    if expected.form == "name":
        mentioned = _mentions(text, expected.candidates)
        return bool(mentioned) and mentioned[0] == expected.value
    if expected.form == "names":
        wanted = set(expected.value)
        return set(_mentions(text, expected.candidates)[: len(wanted)]) == wanted
    if expected.form == "period":
        return _first_period_ok(text, expected)
    if expected.form == "direction":
        up, down = bool(_UP.search(text)), bool(_DOWN.search(text))
        return (up and not down) if expected.value == "up" else (down and not up)
    if expected.form == "date":
        return _first_day(text, expected) == expected.value
    if expected.form == "yesno":
        # an answer that opens with its verdict (はい、あります。) is read by it: a value it goes on to
        # quote ("解約 が No") is no second verdict
        opening = re.split(r"(?<=[。.!?！？])\s*", text, maxsplit=1)[0]
        for said in (opening, text):
            no = bool(_NO.search(said))
            yes = bool(_YES.search(_NO.sub(" ", said)))  # "該当する行は0件" says no, though it holds 該当する
            if yes != no:
                break
        return (yes and not no) if expected.value == "yes" else (no and not yes)
    raise ValueError(expected.form)


def _numbers(text: str) -> list[tuple[float, bool]]:
    found = []
    for match in _NUMBER.finditer(text):
        value = float(match.group("digits").replace(",", ""))
        value *= {"万": 1e4, "億": 1e8}.get(match.group("units"), 1)
        if match.group("sign"):
            value = -value
        found.append((value, bool(match.group("percent"))))
    return found


def _close(value: float, expected: Expected) -> bool:
    target = float(expected.value)
    if expected.absolute:
        return abs(value - target) <= expected.tolerance
    return abs(value - target) <= max(expected.tolerance * abs(target), 1e-9)


def _close_percent(value: float, target: float, text: str) -> bool:
    if abs(value - target) <= max(0.15, 0.01 * abs(target)):
        return True
    # "5.2% 減少" states a negative change with a positive number.
    return target < 0 and abs(value + target) <= max(0.15, 0.01 * abs(target)) and bool(_DOWN.search(text))


def _mentions(text: str, candidates: tuple[str, ...]) -> list[str]:
    """The candidates in the order the text first mentions them (longest names matched first)."""
    folded = text.casefold()
    taken = [False] * len(folded)
    first: dict[str, int] = {}
    for candidate in sorted(candidates, key=len, reverse=True):
        needle = unicodedata.normalize("NFKC", candidate).casefold()
        if not needle:
            continue
        for match in re.finditer(re.escape(needle), folded):
            span = range(match.start(), match.end())
            before = folded[match.start() - 1] if match.start() else " "
            after = folded[match.end()] if match.end() < len(folded) else " "
            if any(taken[i] for i in span) or (needle[-1].isdigit() and after.isdigit()):
                continue
            if needle[0].isascii() and needle[0].isalnum() and before.isascii() and before.isalnum():
                continue
            for i in span:
                taken[i] = True
            first.setdefault(candidate, match.start())
    return sorted(first, key=first.__getitem__)


def _first_day(text: str, expected: Expected) -> pd.Timestamp | None:
    ends = {pd.Timestamp(c) for c in expected.candidates} - {expected.value}
    for match in _DATE.finditer(text):
        if match.group("d") is None:
            continue
        try:
            when = pd.Timestamp(year=int(match.group("y")), month=int(match.group("m")), day=int(match.group("d")))
        except ValueError:
            continue
        if when not in ends:
            return when
    return None


_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_EN_MONTH = re.compile(
    r"\b(?P<m>jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+(?:(?P<d>\d{1,2})(?:st|nd|rd|th)?,?\s+)?"
    r"(?P<y>(?:19|20)\d{2})\b",
    re.IGNORECASE,
)
_YEAR_FIRST = re.compile(
    r"(?<![\d.])(?P<y>(?:18|19|20)\d{2})(?!\d)(?:\s*(?:[-/.]|年)\s*(?P<m>\d{1,2})(?:\s*(?:[-/.]|月)\s*(?P<d>\d{1,2}))?)?"
)


def _english_dates(text: str) -> str:
    """Month names written out ("September 2001", "Sep 11, 2001") as 2001-09 and 2001-09-11."""

    def numeric(match: re.Match[str]) -> str:
        month = _MONTHS.index(match.group("m").lower()[:3]) + 1
        day = f"-{int(match.group('d')):02d}" if match.group("d") else ""
        return f"{match.group('y')}-{month:02d}{day}"

    return _EN_MONTH.sub(numeric, text)


def _first_period_ok(text: str, expected: Expected) -> bool:
    assert expected.bounds is not None
    low, high = expected.bounds
    if (high - low).days >= 360:  # a year: the first year named decides (2003, 2003年, 2003-05)
        ends = {pd.Timestamp(c).normalize() for c in expected.candidates}
        for match in _YEAR_FIRST.finditer(text):
            if match.group("d") and match.group("m"):
                try:
                    when = pd.Timestamp(int(match.group("y")), int(match.group("m")), int(match.group("d")))
                except ValueError:
                    continue
                if when in ends:
                    continue  # the data's own range, not an answer
            return bool(low.year <= int(match.group("y")) <= high.year)
        return False
    ends = {pd.Timestamp(c).normalize() for c in expected.candidates}
    quarter = _QUARTER.search(text)
    if quarter and (high - low).days > 80:  # 2024Q2 / 2024年第2四半期 names a quarter
        start = pd.Timestamp(year=int(quarter.group("y")), month=3 * int(quarter.group("q")) - 2, day=1)
        return bool(low <= start <= high)
    for match in _DATE.finditer(text):
        year, month, day = int(match.group("y")), int(match.group("m")), match.group("d")
        if not 1 <= month <= 12:
            continue
        try:
            when = pd.Timestamp(year=year, month=month, day=int(day) if day else 1)
        except ValueError:
            continue
        if day and when in ends:
            continue  # the data's own range, not an answer
        if day is None:  # a month named without a day: right when the month overlaps the period
            month_end = when + pd.offsets.MonthEnd(0)
            return bool(when <= high and month_end >= low and (high - low).days >= 27)
        # a weekly label may name the week's last day (pandas) or its first: either is accepted
        return bool(low.normalize() <= when <= high)
    return False

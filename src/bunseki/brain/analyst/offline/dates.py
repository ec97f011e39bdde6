"""Date windows in questions: 2024年1月, 2024/3/1〜3/31, 第2四半期, Q1 2024, 先月, last 3 months.

Windows are half-open [start, end) dates. Relative expressions (先月, last year) are read
against the latest date in the data, not the clock, so the same question over the same file
always means the same rows.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta

from bunseki.brain.analyst.offline.text import Spans
from bunseki.domain import Language

MONTHS = {
    name: number
    for number, names in enumerate(
        [
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sep", "sept"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ],
        start=1,
    )
    for name in names
}
_MONTH_NAMES = "|".join(sorted(MONTHS, key=len, reverse=True))

_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    # 1980年代, the 1980s: ten years
    ("decade", re.compile(r"(?P<y3>(?:18|19|20)\d0)\s*年代|\b(?:the\s+)?(?P<y4>(?:18|19|20)\d0)'?s\b", re.IGNORECASE)),
    (
        "ymd",
        re.compile(r"(?P<y>(?:19|20)\d{2})\s*(?:[-/.]|年)\s*(?P<m>\d{1,2})\s*(?:[-/.]|月)\s*(?P<d>\d{1,2})日?"),
    ),
    ("ym", re.compile(r"(?P<y>(?:19|20)\d{2})\s*(?:[-/]|年)\s*(?P<m>\d{1,2})(?:\s*月)?(?![\d/-])")),
    (
        "day_range",
        re.compile(
            rf"\b(?P<mn>{_MONTH_NAMES})\.?\s+(?P<d>\d{{1,2}})\s*[-–~]\s*(?P<d2>\d{{1,2}})\b(?:,?\s*(?P<y>(?:19|20)\d{{2}}))?",
            re.IGNORECASE,
        ),
    ),
    (
        "month_name",
        re.compile(rf"\b(?P<mn>{_MONTH_NAMES})\.?(?:\s+(?P<y>(?:19|20)\d{{2}}))?\b", re.IGNORECASE),
    ),
    (
        "quarter",
        re.compile(
            r"(?:(?P<y>(?:19|20)\d{2})\s*年?\s*(?:(?P<fy>度)\s*)?(?:の\s*)?)?(?:第\s*(?P<q>[1-4])\s*四半期|\bQ(?P<q2>[1-4])\b)"
            r"(?:\s*(?P<y2>(?:19|20)\d{2}))?",
            re.IGNORECASE,
        ),
    ),
    (
        "half",
        re.compile(
            r"(?:(?P<y>(?:19|20)\d{2})\s*年?\s*(?:(?P<fy>度)\s*)?(?:の\s*)?)?(?P<h>上半期|上期|前半|下半期|下期|後半)"
            r"(?:\s*[（(]\s*(?P<m1>\d{1,2})\s*月?\s*[~\-–]\s*(?P<m2>\d{1,2})\s*月\s*[）)])?"
        ),
    ),
    (
        "half_en",
        re.compile(
            r"\b(?:(?P<y>(?:19|20)\d{2})\s+)?(?:(?P<h>H[12])|(?P<hw>first|second) half(?: of)?)\b"
            r"(?:\s*(?P<y2>(?:19|20)\d{2}))?",
            re.IGNORECASE,
        ),
    ),
    ("md", re.compile(r"(?<![\d年/-])(?P<m>\d{1,2})\s*月\s*(?P<d>\d{1,2})\s*日")),
    ("month", re.compile(r"(?<![\d年/-])(?P<m>\d{1,2})\s*月(?!\s*\d)")),
    (
        "year",
        re.compile(
            r"(?P<y>(?:19|20)\d{2})\s*年(?P<fy>度)?|(?<![\d/-])\b(?:in|for|during|of|from|to|between|and|since|"
            r"until|till|through|before|after|vs\.?|versus|than|with)\s+(?P<y2>(?:19|20)\d{2})\b"
            r"(?!\d|[.,]\d|\s*(?:dollars|yen|usd|円|ドル|people|units|items))",
            re.IGNORECASE,
        ),
    ),
    # "total 2020 population": a year before the noun it dates, within the data's years only
    (
        "bare_year",
        re.compile(
            r"(?<![\d/.,$¥#-])\b(?P<y3>(?:19|20)\d{2})\b(?![\d.,%])"
            r"(?=\s+(?!dollars|yen|usd|people|units|items|rows|records|times)[a-z]{3,})",
            re.IGNORECASE,
        ),
    ),
]
_RELATIVE: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"先月|前月|\blast month\b|\bprevious month\b"), "last_month"),
    (re.compile(r"今月|\bthis month\b"), "this_month"),
    (re.compile(r"昨年|去年|前年(?!度)|\blast year\b|\bprevious year\b"), "last_year"),
    (re.compile(r"今年|本年|\bthis year\b"), "this_year"),
]
_RECENT = re.compile(
    r"(?:直近|過去|最近|最後の)\s*(?P<n>\d+)\s*(?P<u>日|週間?|ヶ月|か月|カ月|ヵ月|年)|"
    r"\b(?:last|past|previous)\s+(?P<n2>\d+)\s+(?P<u2>days?|weeks?|months?|years?)\b",
    re.IGNORECASE,
)
_RANGE_JOIN = re.compile(r"^\s*(?:~|から|より|to|through|until|till|-|–|and)\s*$", re.IGNORECASE)
_SINCE = re.compile(r"^\s*(?:以降|から|以後)|(?:\bsince|\bfrom)\s*$", re.IGNORECASE)
_UNTIL = re.compile(r"^\s*(?:まで|以前)|(?:\buntil|\btill|\bthrough|\bup to)\s*$", re.IGNORECASE)
# Strictly before or after the named period: "before 2020" ends when 2020 begins, 2020年より後 after it.
_BEFORE = re.compile(r"^\s*(?:より前|よりも前)|\bbefore\s*$", re.IGNORECASE)
_AFTER = re.compile(r"^\s*(?:より後|よりも後|より あと)|\bafter\s*$", re.IGNORECASE)
_LEADING = re.compile(r"^(?:since|after|from|before|until|till|through|in|for|during|of|to|between|and)\s+", re.I)


@dataclass(frozen=True)
class Window:
    start: date
    end: date  # exclusive
    label: str
    span: tuple[int, int]


def windows(text: str, *, first: date, last: date, language: Language) -> list[Window]:
    """Date windows named in ``text`` (normalised), for data spanning ``first``…``last``."""
    found = _absolute(text, first=first, last=last, language=language)
    found += _relative(text, last=last, language=language, taken=[w.span for w in found], anchors=list(found))
    found.sort(key=lambda window: window.span[0])
    return _join_ranges(text, found, first=first, last=last, language=language)


def _absolute(text: str, *, first: date, last: date, language: Language) -> list[Window]:
    found: list[Window] = []
    taken = Spans()
    year = _year_in(text) or last.year  # once per question: a year per match made long texts quadratic
    fiscal = bool(_FISCAL.search(text))  # 2024年度の上期と下期: both halves of the fiscal year
    for kind, pattern in _PATTERNS:
        for match in pattern.finditer(text):
            span = match.span()
            if taken.overlaps(span):
                continue
            if kind in ("bare_year", "decade"):
                window = _years(kind, match, first=first, last=last, language=language)
            else:
                window = _window(kind, match, first=first, last=last, language=language, year=year, fiscal=fiscal)
            if window is not None:
                found.append(Window(window[0], window[1], window[2], span))
                taken.add(span)
    return found


def _years(
    kind: str, match: re.Match[str], *, first: date, last: date, language: Language
) -> tuple[date, date, str] | None:
    """A decade (1980年代, the 1980s), or a year written without 年 or "in" (one of the data's years)."""
    if kind == "decade":
        year = int(match.group("y3") or match.group("y4"))
        return date(year, 1, 1), date(year + 10, 1, 1), f"{year}年代" if language == "ja" else f"{year}s"
    year = int(match.group("y3"))
    if not first.year <= year <= last.year:
        return None
    return date(year, 1, 1), date(year + 1, 1, 1), f"{year}年" if language == "ja" else str(year)


def _window(
    kind: str, match: re.Match[str], *, first: date, last: date, language: Language, year: int, fiscal: bool = False
) -> tuple[date, date, str] | None:
    """The window one match names; ``year`` is the question's year, for a month without one."""
    groups = match.groupdict()
    named_year = int(groups.get("y") or groups.get("y2") or 0)
    year = named_year or year
    # a half or quarter without its own year follows the question's 年度; with 2024年 it is the calendar's
    fiscal = bool(groups.get("fy")) or (fiscal and not (named_year and kind in ("half", "quarter")))
    try:
        if kind == "day_range":
            month = MONTHS[groups["mn"].lower()]
            start = date(year, month, int(groups["d"]))
            end = date(year, month, int(groups["d2"])) + timedelta(days=1)
            if end <= start:
                return None
            label = f"{_label_day(start, language)}〜{_label_day(end - timedelta(days=1), language)}"
            return start, end, label if language == "ja" else label.replace("〜", " to ")
        if kind == "half_en":
            upper = (groups.get("h") or "").upper() == "H1" or (groups.get("hw") or "").lower() == "first"
            start = date(year, 1 if upper else 7, 1)
            return start, _add_months(start, 6), f"{'H1' if upper else 'H2'} {year}"
        if kind == "ymd":
            day = date(int(groups["y"]), int(groups["m"]), int(groups["d"]))
            return day, day + timedelta(days=1), _label_day(day, language)
        if kind == "md":
            day = date(year, int(groups["m"]), int(groups["d"]))
            return day, day + timedelta(days=1), _label_day(day, language)
        if kind in ("ym", "month", "month_name"):
            month = int(groups["m"]) if kind != "month_name" else MONTHS[groups["mn"].lower()]
            if kind == "month_name" and groups["mn"].lower() == "may" and not groups.get("y"):
                return None  # "may" is mostly the verb
            if not 1 <= month <= 12:
                return None
            start = date(year, month, 1)
            return start, _add_months(start, 1), _label_month(start, language)
        if kind == "quarter":
            quarter = int(groups.get("q") or groups.get("q2") or 0)
            # 年度 is the Japanese fiscal year, April to March: its first quarter is April to June.
            start = _add_months(date(year, 4, 1), 3 * (quarter - 1)) if fiscal else date(year, 3 * quarter - 2, 1)
            label = (
                f"{year}年{'度' if fiscal else ''}第{quarter}四半期"
                if language == "ja"
                else f"{'FY' if fiscal else ''}Q{quarter} {year}"
            )
            return start, _add_months(start, 3), label
        if kind == "half":
            upper = groups["h"] in ("上半期", "上期", "前半")
            if groups.get("m1") and groups.get("m2"):  # 上期（1〜6月）: the months the question gives
                low, high = int(groups["m1"]), int(groups["m2"])
                if not (1 <= low <= 12 and 1 <= high <= 12):
                    return None
                start = date(year, low, 1)
                end = _add_months(date(year + (high < low), high, 1), 1)
                label = (
                    f"{year}年{low}〜{high}月" if language == "ja" else f"{start:%b}–{date(2000, high, 1):%b} {year}"
                )
                return start, end, label
            start = date(year, (4 if upper else 10) if fiscal else (1 if upper else 7), 1)
            half = "上半期" if upper else "下半期"
            label = (
                f"{year}年{'度' if fiscal else ''}{half}"
                if language == "ja"
                else f"{'FY' if fiscal else ''}{year} {'H1' if upper else 'H2'}"
            )
            return start, _add_months(start, 6), label
        if kind == "year":
            start = date(year, 4 if fiscal else 1, 1)
            label = f"{year}年{'度' if fiscal else ''}" if language == "ja" else f"{'FY' if fiscal else ''}{year}"
            return start, _add_months(start, 12), label
    except ValueError:
        return None
    return None


def _relative(
    text: str, *, last: date, language: Language, taken: list[tuple[int, int]], anchors: list[Window] | None = None
) -> list[Window]:
    found = []
    this_month = date(last.year, last.month, 1)
    absolute = Spans(taken)
    for pattern, kind in _RELATIVE:
        for match in pattern.finditer(text):
            if absolute.overlaps(match.span()):
                continue
            # 2024年の前年比, "June 2025 compared with the previous month": the one before the named window
            anchored = _before_anchor(anchors[0], kind, language) if anchors and kind.startswith("last") else None
            if anchored is not None:
                found.append(Window(anchored[0], anchored[1], anchored[2], match.span()))
                continue
            if kind == "last_month":
                start, end = _add_months(this_month, -1), this_month
                label = _label_month(start, language)
            elif kind == "this_month":
                start, end = this_month, _add_months(this_month, 1)
                label = _label_month(start, language)
            elif kind == "last_year":
                start, end = date(last.year - 1, 1, 1), date(last.year, 1, 1)
                label = f"{last.year - 1}年" if language == "ja" else str(last.year - 1)
            else:
                start, end = date(last.year, 1, 1), date(last.year + 1, 1, 1)
                label = f"{last.year}年" if language == "ja" else str(last.year)
            found.append(Window(start, end, label, match.span()))
    for match in _RECENT.finditer(text):
        count = int(match.group("n") or match.group("n2"))
        unit = (match.group("u") or match.group("u2")).lower()
        end = last + timedelta(days=1)
        if unit.startswith(("日", "day")):
            start = end - timedelta(days=count)
        elif unit.startswith(("週", "week")):
            start = end - timedelta(weeks=count)
        elif unit.startswith("年") or unit.startswith("year"):
            start = date(end.year - count, end.month, end.day) if not (end.month == 2 and end.day == 29) else end
        else:
            start = _add_months(end, -count)
        label = f"直近{count}{match.group('u') or ''}" if language == "ja" else f"the last {count} {unit}"
        found.append(Window(start, end, label, match.span()))
    return found


def _before_anchor(anchor: Window, kind: str, language: Language) -> tuple[date, date, str] | None:
    """The window one year (前年) or one month (前月) before ``anchor``, as long as it."""
    if anchor.start.day != 1 or anchor.end.day != 1:
        return None
    months = 12 if kind == "last_year" else 1
    start, end = _add_months(anchor.start, -months), _add_months(anchor.end, -months)
    whole_year = start.month == 1 and end == date(start.year + 1, 1, 1)
    if whole_year:
        label = f"{start.year}年" if language == "ja" else str(start.year)
    elif _add_months(start, 1) == end:
        label = _label_month(start, language)
    else:
        label = f"{_label_month(start, language)}〜" if language == "ja" else f"{_label_month(start, language)} on"
    return start, end, label


def _join_ranges(text: str, found: list[Window], *, first: date, last: date, language: Language) -> list[Window]:
    """'A から B', 'A to B' become one window; 'A 以降' and 'before B' open one end."""
    joined: list[Window] = []
    index = 0
    while index < len(found):
        current = found[index]
        following = found[index + 1] if index + 1 < len(found) else None
        if following and _RANGE_JOIN.match(text[current.span[1] : following.span[0]]):
            separator = "〜" if language == "ja" else " to "
            joined.append(
                Window(
                    current.start,
                    following.end,
                    f"{current.label}{separator}{following.label}",
                    (current.span[0], following.span[1]),
                )
            )
            index += 2
            continue
        after = text[current.span[1] : current.span[1] + 6]
        # the word before the period, whether the period's own match took it ("before 2020") or not
        lead = _LEADING.match(text[current.span[0] : current.span[1]])
        before = text[max(0, current.span[0] - 8) : current.span[0]]
        led = before + (lead.group().strip() if lead else "")
        if lead and lead.group().strip().casefold() in ("since", "until", "till"):
            before = led  # "since 2021", "until 2020": open at one end (not "from 2010 to 2014", one range)
        if _BEFORE.match(after) or _BEFORE.search(led):
            suffix = "より前" if language == "ja" else " (before)"
            current = Window(first, current.start, current.label + suffix, current.span)
        elif _AFTER.match(after) or _AFTER.search(led):
            suffix = "より後" if language == "ja" else " (after)"
            # a window opening after the data's end is empty, not reversed
            current = Window(
                current.end, max(current.end, last + timedelta(days=1)), current.label + suffix, current.span
            )
        elif _SINCE.match(after) or _SINCE.search(before):
            suffix = "以降" if language == "ja" else " onwards"
            current = Window(
                current.start, max(current.start, last + timedelta(days=1)), current.label + suffix, current.span
            )
        elif _UNTIL.match(after) or _UNTIL.search(before):
            suffix = "まで" if language == "ja" else " and before"
            current = Window(first, current.end, current.label + suffix, current.span)
        joined.append(current)
        index += 1
    return joined


_FISCAL = re.compile(r"年度|\bfiscal\b|\bFY\s?\d", re.IGNORECASE)


def is_fiscal(label: str) -> bool:
    """A window label that names a fiscal year (2024年度, FY2024)."""
    return "年度" in label or label.startswith("FY")


def _year_in(text: str) -> int | None:
    match = re.search(r"(?<!\d)((?:19|20)\d{2})(?!\d)", text)
    return int(match.group(1)) if match else None


def _add_months(day: date, months: int) -> date:
    month = day.month - 1 + months
    return date(day.year + month // 12, month % 12 + 1, 1)


def _label_month(start: date, language: Language) -> str:
    return f"{start.year}年{start.month}月" if language == "ja" else start.strftime("%B %Y")


def _label_day(day: date, language: Language) -> str:
    return f"{day.year}年{day.month}月{day.day}日" if language == "ja" else day.isoformat()

"""Numbers as people write them in questions (1.2万, 三, 10k), the analyst's one way of writing one, and spans."""

from __future__ import annotations

import re
from bisect import bisect_left

_UNITS = {"兆": 1e12, "億": 1e8, "万": 1e4, "千": 1e3, "百": 1e2}
_SUFFIXES = {"k": 1e3, "K": 1e3, "m": 1e6, "M": 1e6, "b": 1e9, "B": 1e9}
_KANJI_DIGITS = dict(zip("〇一二三四五六七八九", range(10), strict=True))
_KANJI_PLACES = {"十": 10, "百": 100, "千": 1000}

# A number as people write it: 1,234.5 / 1.2万 / 3億5千万 / 10k / -5 / 15%.
NUMBER = re.compile(
    r"(?<![0-9A-Za-z.])(?P<sign>[-−+]?)(?P<digits>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)"
    r"(?P<units>(?:\s?[兆億万千百])*)(?P<suffix>[kKmMbB](?![a-zA-Z]))?(?P<percent>\s?[%％])?"
)


def kanji_number(text: str) -> int | None:
    """Small numbers in kanji (三, 十五, 二十): for '上位三店舗' and the like."""
    if not text or any(char not in _KANJI_DIGITS and char not in _KANJI_PLACES for char in text):
        return None
    total, current = 0, 0
    for char in text:
        if char in _KANJI_DIGITS:
            current = _KANJI_DIGITS[char]
        else:
            total += (current or 1) * _KANJI_PLACES[char]
            current = 0
    return total + current


def parse_number(match: re.Match[str]) -> float:
    """The value of a NUMBER match, with 万/億 and k/M multipliers applied (not the percent)."""
    value = float(match.group("digits").replace(",", ""))
    units = match.group("units").replace(" ", "")
    # 3億5千万: multipliers apply right to left within the run (5千万 = 5 × 1000 × 10000).
    for unit in units:
        value *= _UNITS[unit]
    suffix = match.group("suffix")
    if suffix:
        value *= _SUFFIXES[suffix]
    if match.group("sign") in ("-", "−"):
        value = -value
    return value


def numbers(text: str) -> list[tuple[float, re.Match[str]]]:
    """Every number in ``text`` with its match (span, percent sign, units)."""
    return [(parse_number(match), match) for match in NUMBER.finditer(text)]


def format_number(value: float, decimals: int | None = None, grouping: bool = True) -> str:
    """The one way the offline analyst writes a number: in reports, and in the code it generates.

    ``decimals`` when asked (a format's "two decimal places"); otherwise a whole number as one,
    two decimals from 1 up (trailing zeros dropped) and three significant digits below 1, so a
    small p-value is not shown as 0. ``grouping`` adds thousands separators (not in ``@name[value]``
    answers, which are read back as numbers). The body uses builtins only: ``codegen`` copies it
    into the generated code, so what the code prints and what the report says cannot disagree.
    """
    separator = "," if grouping else ""
    if decimals is not None:
        return f"{value:{separator}.{decimals}f}"
    if float(value).is_integer() and abs(value) < 1e15:
        return f"{int(value):{separator}}"
    if abs(value) >= 1:
        return f"{value:{separator}.2f}".rstrip("0").rstrip(".")
    return f"{value:.3g}"


class Spans:
    """Non-overlapping ``[start, end)`` spans, kept sorted so a check costs log n, not n.

    Questions can hold thousands of mentions (a pasted text, a repeated word); checking each new
    span against every earlier one would make reading them quadratic.
    """

    def __init__(self, spans: list[tuple[int, int]] | None = None) -> None:
        self._starts: list[int] = []
        self._ends: list[int] = []
        for start, end in sorted(spans or []):  # spans given up front may overlap: merge them
            if self._ends and start < self._ends[-1]:
                self._ends[-1] = max(self._ends[-1], end)
            else:
                self._starts.append(start)
                self._ends.append(end)

    def overlaps(self, span: tuple[int, int]) -> bool:
        start, end = span
        index = bisect_left(self._starts, start)
        if index > 0 and self._ends[index - 1] > start:
            return True
        return index < len(self._starts) and self._starts[index] < end

    def add(self, span: tuple[int, int]) -> None:
        """Keep ``span``; the caller checked that it overlaps none kept so far."""
        index = bisect_left(self._starts, span[0])
        self._starts.insert(index, span[0])
        self._ends.insert(index, span[1])

"""Numbers in an answer must come from somewhere: executed output, the data, the question, a passage.

A model may write a fluent conclusion around a number it made up; a tiny local model nearly always
does. Before such text is shown as Bunseki's, each number in it is looked for among the numbers of
its sources, allowing for rounding (3.09 for 3.0897) and percentages (15.3% for 0.153). Small
integers (0–10) pass: prose counts things ("3 groups", "2 attempts") far more often than it claims
them. A hit is only a plausibility check, not a proof; a miss is reliably a number with no source.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from bunseki.domain import ReportOutput

SMALL_COUNT = 10
# ASCII-only look-arounds: in "平均は3.5です" the number touches kana, which \w would count as a word.
_NUMBER = re.compile(r"(?<![A-Za-z0-9_.])(?<![A-Za-z0-9]-)-?\d(?:[\d,]*\d)?(?:\.\d+)?(?![A-Za-z0-9_])")
_CITATION = re.compile(r"\[\d+\]")


def numbers_in(text: str) -> list[Decimal]:
    """The numbers written in ``text`` (thousands separators dropped; citations like [2] ignored)."""
    found = []
    for match in _NUMBER.finditer(_CITATION.sub(" ", text)):
        try:
            found.append(Decimal(match.group().replace(",", "")))
        except InvalidOperation:
            continue
    return found


def ungrounded(text: str, sources: Iterable[str]) -> list[str]:
    """The numbers of ``text`` that no source supports, as written there (empty: all grounded)."""
    known = [abs(value) for source in sources for value in numbers_in(source)]
    return [
        _show(number)
        for number in dict.fromkeys(abs(n) for n in numbers_in(text))
        if not _small_count(number) and not any(_supports(value, number) for value in known)
    ]


@dataclass(frozen=True)
class Objection:
    """Why an answer cannot be used: in full for the model, and for people without the model's text."""

    for_model: str
    for_people: str


UNGROUNDED = "it stated numbers that no executed code printed"


def report_text(report: ReportOutput) -> str:
    """What a person reads as the answer: title, conclusion, text and table sections, captions."""
    parts = [report.title, report.conclusion]
    for section in report.sections:
        if section.section_type != "image":
            parts.append(section.content)
        parts.append(section.description or "")
    return "\n".join(parts)


def _supports(value: Decimal, number: Decimal) -> bool:
    """``value`` printed as ``number``: equal, rounded to its places, or as a percentage."""
    exponent = number.as_tuple().exponent
    places = max(0, -exponent) if isinstance(exponent, int) else 0
    return any(candidate == number or round(candidate, places) == number for candidate in (value, value * 100))


def _small_count(number: Decimal) -> bool:
    return number == number.to_integral_value() and number <= SMALL_COUNT


def _show(number: Decimal) -> str:
    return format(number, "f") if math.isfinite(float(number)) else str(number)

"""Facts the specifications state, read from their text: rates, durations, frame counts, ranges,
window alignment, and how missing values and signs are to be treated.

Each fact keeps the sentence it came from, so a hypothesis built on it can say where it is
written. The reading is deliberately plain (numbers with their units, and a few words in Japanese
and English): it proposes values and edits to run, and only a re-run decides.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import asdict, dataclass
from typing import Any, Literal

FactKind = Literal["rate", "duration", "frames", "range", "centred", "trailing", "fill", "magnitude"]

_NUMBER = r"(-?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?)"
_RATE = re.compile(_NUMBER + r"\s*(?:hz|ヘルツ|fps|samples? per second|frames? per second|サンプル/秒|回/秒)", re.I)
_SECONDS = {"ms": 0.001, "msec": 0.001, "ミリ秒": 0.001, "s": 1.0, "sec": 1.0, "secs": 1.0, "second": 1.0}
_SECONDS |= {"seconds": 1.0, "秒": 1.0, "秒間": 1.0, "min": 60.0, "minute": 60.0, "minutes": 60.0, "分": 60.0}
_SECONDS |= {"分間": 60.0, "h": 3600.0, "hour": 3600.0, "hours": 3600.0, "時間": 3600.0}
_DURATION = re.compile(
    _NUMBER + r"\s*(" + "|".join(sorted(map(re.escape, _SECONDS), key=len, reverse=True)) + r")(?![A-Za-z])", re.I
)
_FRAMES = re.compile(_NUMBER + r"\s*(?:frames?|samples?|points?|rows?|フレーム|サンプル|点|行)", re.I)
_RANGE = re.compile(_NUMBER + r"\s*(?:%|％)?\s*(?:-|–|—|〜|～|~|to|から|and)\s*" + _NUMBER + r"\s*(?:%|％)?")
_RANGE_WORDS = re.compile(r"clip|clamp|limit|range|between|bound|saturat|範囲|上限|下限|丸め|クリップ|制限|以内", re.I)
_CENTRED = re.compile(r"cent(?:red|ered|re|er)\b|symmetric|中心|中央|前後", re.I)
_TRAILING = re.compile(r"trailing|causal|past|preceding|previous|直前|過去|遡", re.I)
_WINDOW = re.compile(r"window|rolling|moving|窓|移動", re.I)
_FILL = re.compile(
    r"forward[- ]fill|carr(?:y|ied) forward|last (?:valid|known) value|interpolat"
    r"|直前の(?:有効な)?値|前の値|補間|引き継",
    re.I,
)
_MAGNITUDE = re.compile(r"absolute|magnitude|\|[a-z_]+\||either (?:sign|direction)|絶対値|符号を問わ|正負", re.I)


@dataclass(frozen=True)
class Fact:
    """One thing a specification states: its kind, its value in base units (seconds, Hz), and where."""

    kind: FactKind
    value: float | None
    upper: float | None  # the end of a range
    text: str  # the sentence it was read from
    source: str

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def read_facts(documents: dict[str, str]) -> list[Fact]:
    """The facts of every document (name → text), in order of appearance, without repeats."""
    found: list[Fact] = []
    for source, text in documents.items():
        for sentence in _sentences(unicodedata.normalize("NFKC", text).replace("\u2212", "-")):
            found += _facts(sentence, source)
    return list(dict.fromkeys(found))


def documented_values(facts: list[Fact]) -> list[float]:
    """The values a code constant could be meant to hold: rates, durations (in seconds and in
    milliseconds), frame counts, range ends, and durations × rates (frames a duration spans)."""
    values: list[float] = []
    rates = [f.value for f in facts if f.kind == "rate" and f.value]
    for fact in facts:
        if fact.value is None:
            continue
        values.append(fact.value)
        if fact.kind == "duration":
            values.append(round(fact.value * 1000, 6))
            values += [round(fact.value * rate, 6) for rate in rates]
        if fact.upper is not None:
            values.append(fact.upper)
    return list(dict.fromkeys(values))


def ranges(facts: list[Fact]) -> list[tuple[float, float]]:
    """The (low, high) ranges the specifications state, for a clip."""
    found = [(f.value, f.upper) for f in facts if f.kind == "range" and f.value is not None and f.upper is not None]
    return list(dict.fromkeys(found))


def _facts(sentence: str, source: str) -> list[Fact]:
    facts: list[Fact] = []
    short = sentence.strip()[:240]

    def add(kind: FactKind, value: float | None = None, upper: float | None = None) -> None:
        facts.append(Fact(kind, value, upper, short, source))

    for match in _RATE.finditer(sentence):
        add("rate", _float(match.group(1)))
    for match in _DURATION.finditer(sentence):
        add("duration", round(_float(match.group(1)) * _SECONDS[match.group(2).lower()], 9))
    for match in _FRAMES.finditer(sentence):
        add("frames", _float(match.group(1)))
    if _RANGE_WORDS.search(sentence):
        for match in _RANGE.finditer(sentence):
            low, high = _float(match.group(1)), _float(match.group(2))
            if low < high:
                add("range", low, high)
    if _WINDOW.search(sentence):
        if _CENTRED.search(sentence):
            add("centred")
        elif _TRAILING.search(sentence):
            add("trailing")
    if _FILL.search(sentence):
        add("fill")
    if _MAGNITUDE.search(sentence):
        add("magnitude")
    return facts


def _sentences(text: str) -> list[str]:
    return [part for part in re.split(r"(?<=[。.!?])\s+|\n\s*\n|\n(?=\s*(?:[-*]|\d+\.)\s)", text) if part.strip()]


def _float(text: str) -> float:
    return float(text.replace(",", ""))

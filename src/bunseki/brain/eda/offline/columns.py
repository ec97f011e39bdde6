"""Which columns of the profile a goal or a piece of feedback names, and which kinds they are.

Names match exactly (case- and width-insensitive), as contained words ("sales" in "add sales by
region", "売上" in "売上に絞って"), by a word of the name ("amount" for ``sales_amount``), or
through the plain words of a concept of the shared lexicon (売上 ↔ sales). A phrase that names
no column, or several equally, resolves to nothing: the brain then says so instead of guessing.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from bunseki.brain.lexicon import CONCEPTS, TIME_WORDS
from bunseki.data.profile import ColumnProfile, TableProfile

MAX_LISTED = 6  # columns a step looks at, at most
# The concepts' plain words: the ones safe to look for anywhere in a goal or a piece of feedback.
SYNONYMS = tuple(concept.plain for concept in CONCEPTS if concept.plain)
# Measures a trend sums per period (others it averages), and the money-like ones a breakdown reports.
ADDITIVE = re.compile(
    r"(?i)売上|売り上げ|金額|数量|個数|件数|利益|販売|sales|revenue|amount|quantity|qty|count|profit|units"
)
MEASURE = re.compile(r"(?i)売上|売り上げ|金額|利益|販売|価格|単価|sales|revenue|amount|profit|price|value")


def norm(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold().strip()


@dataclass(frozen=True)
class Kinds:
    """The profile's usable columns by role (identifiers and free text left out)."""

    numeric: list[str]
    categorical: list[str]
    datetime: list[str]

    @classmethod
    def of(cls, profile: TableProfile) -> Kinds:
        return cls(
            numeric=[c.name for c in profile.columns if c.kind == "numeric"],
            categorical=[c.name for c in profile.columns if c.kind in ("categorical", "boolean") and c.distinct > 0],
            datetime=[c.name for c in profile.columns if c.kind == "datetime"],
        )


def usable(profile: TableProfile) -> list[ColumnProfile]:
    return [c for c in profile.columns if c.kind != "id"]


def _pattern(name: str) -> re.Pattern[str]:
    escaped = re.escape(norm(name))
    if name.isascii():  # "age" must not match inside "page"
        return re.compile(rf"(?<![a-z0-9]){escaped}(?![a-z0-9])")
    return re.compile(escaped)


def _aliases(name: str) -> list[str]:
    key = norm(name)
    words = set(re.split(r"[\s_\-/・.()（）]+", key))
    aliases: list[str] = []
    for group in SYNONYMS:
        # Japanese names are not split into words: "売上金額" holds 売上 and 金額 as parts.
        parts = any(len(alias) >= 2 and not alias.isascii() and alias in key for alias in group)
        if key in group or any(word in group for word in words) or parts:
            aliases += [alias for alias in group if alias != key]
    return aliases


def mentioned(text: str, profile: TableProfile) -> list[str]:
    """Columns ``text`` names, in the order it names them; the longer of two overlapping names wins."""
    haystack = norm(text)
    spans: list[tuple[int, int, str]] = []
    for column in usable(profile):
        hit = _pattern(column.name).search(haystack)
        if hit is None:
            for alias in _aliases(column.name):
                hit = _pattern(alias).search(haystack)
                if hit:
                    break
        if hit is not None:
            spans.append((hit.start(), hit.end(), column.name))
    spans.sort(key=lambda span: (span[0] - span[1], span[0]))  # longest first
    kept: list[tuple[int, int, str]] = []
    for start, end, name in spans:
        if all(end <= s or start >= e for s, e, _ in kept):
            kept.append((start, end, name))
    return [name for _, _, name in sorted(kept)]


def resolve(phrase: str, profile: TableProfile) -> str | None:
    """The one column ``phrase`` names, or None when it names none or several."""
    key = norm(phrase)
    if not key:
        return None
    columns = usable(profile)
    exact = [c.name for c in columns if norm(c.name) == key]
    if exact:
        return exact[0]
    named = mentioned(phrase, profile)
    if len(named) == 1:
        return named[0]
    containing = [c.name for c in columns if key in norm(c.name) and len(key) >= 2]
    if len(containing) == 1:
        return containing[0]
    if key in TIME_WORDS or key.rstrip("別ごと毎") in TIME_WORDS:
        dates = Kinds.of(profile).datetime
        return dates[0] if len(dates) == 1 else None
    return None


def key_measure(profile: TableProfile, target: str | None = None) -> str | None:
    """The numeric column a breakdown or a trend reports: the target, a money-like column, else the first."""
    numeric = Kinds.of(profile).numeric
    if target in numeric:
        return target
    named = [name for name in numeric if MEASURE.search(name)]
    return next(iter(named or numeric), None)


def goal_target(goal: str | None, profile: TableProfile) -> str | None:
    """The column the goal is about ("売上に影響する要因" → 売上): numeric first, else categorical."""
    if not goal:
        return None
    kinds = Kinds.of(profile)
    named = mentioned(goal, profile)
    numeric = [name for name in named if name in kinds.numeric]
    categorical = [name for name in named if name in kinds.categorical]
    return next(iter(numeric or categorical), None)


def kind_of(profile: TableProfile, name: str) -> str | None:
    column = profile.column(name)
    return column.kind if column else None

"""Row conditions in questions: category values (関東だけ, except Tokyo) and number comparisons."""

from __future__ import annotations

import re
from collections import defaultdict

from bunseki.brain.models import Language
from bunseki.brain.offline.columns import Mention, ValueMention
from bunseki.brain.offline.plan import Filter, Op
from bunseki.brain.offline.text import numbers
from bunseki.brain.offline.vocab import COMPARISONS, COMPARISONS_EN, NEGATION_AFTER, NEGATION_BEFORE
from bunseki.data.summary import DataFrameInfo

_BETWEEN = re.compile(
    r"(?:between\s+)?(?P<a>-?[\d,.]+\s*[万億千]?)\s*(?:~|から|and|to|–)\s*(?P<b>-?[\d,.]+\s*[万億千]?)"
    r"\s*(?:の間|の範囲|まで)?",
    re.IGNORECASE,
)


def value_filters(text: str, values: list[ValueMention]) -> list[Filter]:
    """Equality filters from category values; several values of one column become ``in``."""
    by_column: dict[tuple[str, bool], list[ValueMention]] = defaultdict(list)
    lowered = text.lower()
    for mention in values:
        negated = bool(NEGATION_AFTER.match(text[mention.end :]) or NEGATION_BEFORE.search(lowered[: mention.start]))
        by_column[(mention.column, negated)].append(mention)
    filters = []
    for (column, negated), mentions in by_column.items():
        chosen = list(dict.fromkeys(mention.value for mention in mentions))
        shown = ", ".join(text[m.start : m.end] for m in mentions)
        if len(chosen) == 1:
            filters.append(Filter(column=column, op="!=" if negated else "==", value=chosen[0], text=shown))
        else:
            filters.append(Filter(column=column, op="not in" if negated else "in", value=chosen, text=shown))
    return filters


def number_filters(
    text: str,
    mentions: list[Mention],
    info: DataFrameInfo,
    *,
    language: Language,
    taken: list[tuple[int, int]],
    default_column: str | None,
) -> list[Filter]:
    """Comparisons of numeric columns with numbers: 売上が10万円以上, more than 100 customers."""
    numeric = [m for m in mentions if is_number(info, m.column)]
    filters: list[Filter] = []
    used: list[tuple[int, int]] = list(taken)
    for match in _BETWEEN.finditer(text):
        if _overlaps(match.span(), used) or not re.search(r"between|の間|の範囲|~|から", match.group(), re.IGNORECASE):
            continue
        low, high = _value(match.group("a")), _value(match.group("b"))
        column = _nearest(numeric, match.start(), match.end(), language) or default_column
        if low is not None and high is not None and column and low <= high:
            filters.append(Filter(column=column, op="between", value=[low, high], text=match.group().strip()))
            used.append(match.span())
    for value, match in numbers(text):
        if _overlaps(match.span(), used):
            continue
        op = _comparison(text, match.start(), match.end(), language)
        if op is None:
            continue
        column = _nearest(numeric, match.start(), match.end(), language) or default_column
        if column is None:
            continue
        if match.group("percent"):
            column_info = info.column(column)
            if column_info and isinstance(column_info.maximum, float) and column_info.maximum <= 1:
                value /= 100  # 10% of a column holding fractions
        filters.append(Filter(column=column, op=op, value=value, text=match.group().strip()))
        used.append(match.span())
    return filters


def _comparison(text: str, start: int, end: int, language: Language) -> Op | None:
    after = text[end : end + 16]
    # A unit between the number and the comparison: 30度以上, 5時間未満, 5 nights or more.
    after = re.sub(
        r"^\s*(?:[^\s\d、。,.?？!（）()]{1,2}(?=以上|以下|未満|超|を超|より)|[a-z]+(?=\s+or\s))?\s*", "", after
    )
    for op, pattern in COMPARISONS:
        if re.match(pattern, after):
            return op  # type: ignore[return-value]
    trailing = re.match(r"or (?:more|above|higher|greater|over)\b|or (?:less|fewer|below|lower|under)\b", after)
    if trailing:
        return ">=" if re.match(r"or (?:more|above|higher|greater|over)", trailing.group()) else "<="
    before = text[max(0, start - 40) : start].lower()
    for op, pattern in COMPARISONS_EN:
        if re.search(rf"(?:{pattern})\s*(?:of\s+|than\s+)?[$¥]?\s*$", before):
            return op  # type: ignore[return-value]
    return None


def _nearest(numeric: list[Mention], start: int, end: int, language: Language) -> str | None:
    """The numeric column a number compares: the closest one before it, else after it."""
    before = [m for m in numeric if m.end <= start and start - m.end <= 30]
    after = [m for m in numeric if m.start >= end and m.start - end <= 30]
    if before:
        return max(before, key=lambda m: m.end).column
    if after:
        return min(after, key=lambda m: m.start).column
    return None


def _value(text: str) -> float | None:
    found = numbers(text)
    return found[0][0] if found else None


def _overlaps(span: tuple[int, int], used: list[tuple[int, int]]) -> bool:
    return any(span[0] < end and start < span[1] for start, end in used)


def is_number(info: DataFrameInfo, column: str) -> bool:
    found = info.column(column)
    return found is not None and found.kind == "number"

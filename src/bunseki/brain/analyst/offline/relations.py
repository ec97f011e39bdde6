"""Rows compared column against column (在庫数が発注点を下回る, "where sales exceed target", a < b)
and a column equal to a number (在庫が0の品目, "rooms with 2 guests").

A number filter compares a column with a number the question gives; here the other side is a
second numeric column of the same row. The filter keeps the first column and names the second
in ``Filter.other``; the code compares the two columns row by row.
"""

from __future__ import annotations

import itertools
import re

from bunseki.brain.analyst.offline.columns import Mention
from bunseki.brain.analyst.offline.plan import Filter, Op
from bunseki.brain.analyst.offline.text import NUMBER, parse_number
from bunseki.data.summary import DataFrameInfo

GAP = 24  # characters between the two columns' names where the comparison word is written
_SYMBOLS: dict[str, Op] = {"<": "<", ">": ">", "<=": "<=", ">=": ">=", "≤": "<=", "≥": ">="}
# Japanese: A が B を下回る / B より少ない / B 未満 — the word follows the second column.
_JA_AFTER: tuple[tuple[Op, re.Pattern[str]], ...] = (
    ("<=", re.compile(r"^\s*(?:以下|を上回らない)")),
    (">=", re.compile(r"^\s*(?:以上|を下回らない)")),
    ("<", re.compile(r"^\s*(?:を下回|より(?:少な|低|小さ)|未満|に満たな|に達していな|を切)")),
    (">", re.compile(r"^\s*(?:を上回|を超|より(?:多|高|大き)|超)")),
)
_JA_BETWEEN = re.compile(r"^\s*(?:が|は|の値が|の方が)?\s*$")
_EN_BETWEEN: tuple[tuple[Op, re.Pattern[str]], ...] = (
    ("<=", re.compile(r"(?:at most|no more than|not above|not exceeding)")),
    (">=", re.compile(r"(?:at least|no less than|not below)")),
    ("<", re.compile(r"(?:below|less than|lower than|under|smaller than|fewer than|falls? short of|fell short of)")),
    (">", re.compile(r"(?:above|more than|greater than|higher than|over|exceeds?|exceeded|exceeding|beats?|beat)")),
)
_EN_FILLER = re.compile(
    r"^\s*(?:is|are|was|were|be|been|being|stays?|stayed|went|goes|go|fell|falls|is still|are still)?\s*"
    r"(?P<word>[a-z ]+?)\s*(?:the|their|its|his|her|our|your)?\s*$"
)


def column_comparisons(text: str, mentions: list[Mention], info: DataFrameInfo) -> list[Filter]:
    """Filters comparing one numeric column with another, as the question words them."""
    numeric = [m for m in mentions if (c := info.column(m.column)) is not None and c.kind == "number"]
    found: list[Filter] = []
    for left, right in itertools.pairwise(numeric):
        if left.column == right.column or right.start - left.end > GAP:
            continue
        op = _operator(text[left.end : right.start].lower(), text[right.end : right.end + 12])
        if op is not None:
            shown = text[left.start : right.end]
            found.append(Filter(column=left.column, op=op, value=right.column, other=right.column, text=shown))
    return found


def _operator(between: str, after: str) -> Op | None:
    symbol = between.strip()
    if symbol in _SYMBOLS:
        return _SYMBOLS[symbol]
    if _JA_BETWEEN.match(between):
        for op, pattern in _JA_AFTER:
            if pattern.match(after):
                return op
        return None
    filler = _EN_FILLER.match(between)
    if filler is None:
        return None
    for op, pattern in _EN_BETWEEN:
        if pattern.fullmatch(filler.group("word").strip()):
            return op
    return None


# 在庫が0の, 評価が5で, guests = 2, "nights equal to 3": a number with no comparison word after it.
_EQUAL_BETWEEN = re.compile(r"^\s*(?:が|は|=|==|is|was|equals?|equal to|of exactly)?\s*$", re.IGNORECASE)
_NOT_EQUALITY = re.compile(
    r"^\s*(?:[^\s\d、。,.?？]{0,2}\s*)?(?:以上|以下|未満|超|より|を超|を下回|を上回|%|％|年|月|日|or\b|[.,]\d|[万億千])"
    r"|^\s*(?:つ|位|番目|件(?!数))",
    re.IGNORECASE,
)

# After the number: a counter word at most, then a particle or the end (在庫が0の, 評価が5で; not 4都市).
_EQUAL_END = re.compile(  # used with match(text, pos): anchored at pos, $ at the real end
    r"\s*(?:[件個人円回歳点日泊名つ]|nights?|days?|people|units|items|dollars)?\s*"
    r"(?:の|で|と|な|、|。|,|\?|？|$|\s+(?:and|or|in|for|with|were|was|are|is)\b)",
    re.IGNORECASE,
)


def equalities(text: str, mentions: list[Mention], info: DataFrameInfo, existing: list[Filter]) -> list[Filter]:
    """A numeric column equal to a number written right after it (在庫が0の品目は何件)."""
    conditioned = {c for f in existing for c in f.columns()}
    found: list[Filter] = []
    for mention in mentions:
        column = info.column(mention.column)
        if column is None or column.kind != "number" or mention.column in conditioned:
            continue
        number = NUMBER.search(text, mention.end, mention.end + 8)
        if number is None or number.group("percent") or not _EQUAL_BETWEEN.match(text[mention.end : number.start()]):
            continue
        if _NOT_EQUALITY.match(text[number.end() : number.end() + 6]) or not _EQUAL_END.match(text, number.end()):
            continue
        value = parse_number(number)
        shown = text[mention.start : number.end()]
        found.append(
            Filter(column=mention.column, op="==", value=int(value) if value.is_integer() else value, text=shown)
        )
        conditioned.add(mention.column)
    return found + coded_counts(text, mentions, info, conditioned)


def coded_counts(text: str, mentions: list[Mention], info: DataFrameInfo, conditioned: set[str]) -> list[Filter]:
    """A code written before its column's name: 8気筒 (気筒数 = 8), "4 gears", 4気筒と8気筒 (both).

    Only for a numeric column with few values, the number being one of them.
    """
    named: dict[str, list[tuple[int | float, str]]] = {}
    for mention in mentions:
        column = info.column(mention.column)
        if column is None or column.kind != "number" or not column.values or mention.column in conditioned:
            continue
        number = _NUMBER_BEFORE.search(text[max(0, mention.start - 12) : mention.start])
        if number is None:
            continue
        value = float(number.group("n"))
        code = int(value) if value.is_integer() else value
        if str(code) in column.values:
            named.setdefault(mention.column, []).append((code, number.group("n") + mention.text))
    found = []
    for column_name, codes in named.items():
        values = list(dict.fromkeys(code for code, _ in codes))
        shown = "|".join(dict.fromkeys(text for _, text in codes))
        if len(values) == 1:
            found.append(Filter(column=column_name, op="==", value=values[0], text=shown))
        else:
            found.append(Filter(column=column_name, op="in", value=values, text=shown))
    return found


_NUMBER_BEFORE = re.compile(r"(?<![\d.])(?P<n>\d+(?:\.\d+)?)\s?$")

"""Row conditions: read from questions (関東だけ, except Tokyo, 10万円以上) and written as pandas (``condition``)."""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections import defaultdict
from typing import Any, Final

from bunseki.brain.analyst.offline.columns import Mention, ValueMention
from bunseki.brain.analyst.offline.plan import Filter, Op
from bunseki.brain.analyst.offline.text import Spans, numbers
from bunseki.brain.analyst.offline.vocab import COMPARISONS, COMPARISONS_EN, NEGATION_AFTER, NEGATION_BEFORE
from bunseki.brain.lexicon import concepts_for
from bunseki.data.summary import ColumnInfo, DataFrameInfo
from bunseki.domain import Language

# The first number starts only where a run of digits starts, and its digits are not given back
# (possessive ++): otherwise a long run of digits is retried from each of its positions.
_BETWEEN = re.compile(
    r"(?:between\s+)?(?P<a>(?<![\d,.])-?[\d,.]++\s*[万億千]?)\s*(?:~|から|and|to|–)\s*(?P<b>-?[\d,.]++\s*[万億千]?)"
    r"\s*(?:の間|の範囲|まで)?",
    re.IGNORECASE,
)
_COORDINATED = re.compile(r"\s*(?:と|、|,|・|や|及び|および|and|or)\s*", re.IGNORECASE)  # A と B を除く: both
NEAR = 40  # characters around a mention where a negation or comparison word belongs to it


def condition(item: Filter, info: DataFrameInfo, frame: str = "data") -> str:
    """The one pandas expression for a row condition, used by every piece of generated code.

    A window on a date column is closed-open, ``[start, end)``: 2024年1月 is ``>= '2024-01-01'`` and
    ``< '2024-02-01'``, so a timestamp late on the last day is in and the next month's first is out.
    A range of numbers ("between 10 and 20") includes both ends, as people mean it.
    """
    column = f"{frame}[{item.column!r}]"
    if item.op == "active_on":  # begun on or before the day, and not ended by it (or never ended)
        day = f"pd.Timestamp({str(item.value)!r})"
        begun = f"(pd.to_datetime({column}, errors='coerce') <= {day})"
        if not item.other:
            return begun
        ended = f"pd.to_datetime({frame}[{item.other!r}], errors='coerce')"
        return f"{begun} & ({ended}.isna() | ({ended} > {day}))"
    if item.op in ("missing", "present"):  # 管理費が設定されていない, "no email recorded"
        return f"{column}.isna()" if item.op == "missing" else f"{column}.notna()"
    if item.other:  # two columns of the same row (在庫数 < 発注点)
        return f"({column} {item.op} {frame}[{item.other!r}])"
    if item.op == "between":
        low, high = item.value
        found = info.column(item.column)
        if found is not None and found.kind == "datetime":
            return f"({column} >= {low!r}) & ({column} < {high!r})"
        return f"{column}.between({low!r}, {high!r})"
    found = info.column(item.column)
    if item.op in ("in", "not in"):
        expression = f"{column}.isin({[typed(v, found) for v in item.value]!r})"
        return expression if item.op == "in" else f"~{expression}"
    return f"({column} {item.op} {typed(item.value, found)!r})"


def typed(value: Any, column: ColumnInfo | None) -> Any:
    """A value as the column holds it: "1" of a 1/0 flag is the number 1, "False" of a flag False."""
    if column is None or not isinstance(value, str):
        return value
    if column.kind == "boolean" and value in ("True", "False"):
        return value == "True"
    if column.kind == "number":
        try:
            number = float(value)
        except ValueError:
            return value
        return int(number) if number.is_integer() else number
    return value


def rows(filters: list[Filter], info: DataFrameInfo, frame: str = "data") -> str:
    """The rows of ``frame`` that meet every condition (``frame`` itself when there is none)."""
    if not filters:
        return frame
    return f"{frame}[" + " & ".join(f"({condition(item, info, frame)})" for item in filters) + "]"


# A column said to be filled in or left blank, right after its name: 管理費が設定されている物件,
# メールアドレスが未登録の会員, "rows where email is missing", "houses with no HOA fee recorded".
_PRESENT: Final = re.compile(
    r"^\s*(?:が|の|は)?\s*(?:(?:設定|記録|入力|記載|登録)(?:されて|が(?:あ|されて))(?:い)?る|(?:記入|入力|登録)済み?|"
    r"is (?:recorded|known|filled in|given|set|present|not missing)|"
    r"(?:are|were|was) (?:recorded|known|filled in|given))",
    re.IGNORECASE,
)
_MISSING: Final = re.compile(
    r"^\s*(?:が|の|は)?\s*(?:(?:設定|記録|入力|記載|登録)(?:されて|が)(?:い)?ない|未(?:設定|記録|入力|記入|記載|登録)|"
    r"空欄|空白|欠損(?:して)?|不明|"
    r"is (?:missing|blank|empty|unknown|not recorded|null)|"
    r"(?:are|were|was) (?:missing|blank|empty|unknown|not recorded))",
    re.IGNORECASE,
)


_NO_BEFORE: Final = re.compile(r"\b(?:no|without(?: an?| any)?)\s+$", re.IGNORECASE)
_RECORDED_AFTER: Final = re.compile(
    r"^\s*(?:recorded|given|listed|entered|filled in|figures?|values?|data|entry|entries)\b", re.IGNORECASE
)


def presence_filters(text: str, mentions: list[Mention]) -> list[tuple[Filter, tuple[int, int]]]:
    """Conditions that a column is filled in or blank, read right after the column's name (or around
    it: "with no HOA fee recorded"), each with the span of the question it was read from."""
    found: list[tuple[Filter, tuple[int, int]]] = []
    for mention in mentions:
        after = text[mention.end : mention.end + 16]
        recorded = _RECORDED_AFTER.match(after)
        if recorded and _NO_BEFORE.search(text[max(0, mention.start - 12) : mention.start]):
            span = (mention.start, mention.end + recorded.end())
            found.append((Filter(column=mention.column, op="missing", value=None, text=text[slice(*span)]), span))
            continue
        if matched := _MISSING.match(after) or _PRESENT.match(after):
            op: Op = "missing" if matched.re is _MISSING else "present"
            span = (mention.start, mention.end + matched.end())
            found.append((Filter(column=mention.column, op=op, value=None, text=text[slice(*span)]), span))
    return found


# A numeric column said to be below or above zero in words: 前月差がマイナスの月, "profit was negative".
_SIGN: Final = re.compile(
    r"^\s*(?:が|は|の)?\s*(?:(?P<below>マイナス|負の値|負|赤字)|(?P<above>プラス|正の値|黒字))|"
    r"^\s*(?:(?:is|was|were|are)\s+)?(?:(?P<below_en>negative|below zero)|(?P<above_en>positive|above zero))\b",
    re.IGNORECASE,
)


def sign_filters(text: str, mentions: list[Mention], info: DataFrameInfo) -> list[tuple[Filter, tuple[int, int]]]:
    """Conditions that a numeric column is below or above zero, read right after its name, with their span."""
    found: list[tuple[Filter, tuple[int, int]]] = []
    for mention in mentions:
        if not is_number(info, mention.column):
            continue
        said = _SIGN.match(text[mention.end : mention.end + 16])
        if said is None:
            continue
        below = bool(said.group("below") or said.group("below_en"))
        span = (mention.start, mention.end + said.end())
        found.append((Filter(column=mention.column, op="<" if below else ">", value=0, text=text[slice(*span)]), span))
    return found


def value_filters(text: str, values: list[ValueMention]) -> list[Filter]:
    """Equality filters from category values; several values of one column become ``in``."""
    by_column: dict[tuple[str, bool], list[ValueMention]] = defaultdict(list)
    lowered = text.lower()
    negated_at: dict[int, bool] = {}
    following: ValueMention | None = None
    for mention in sorted(values, key=lambda m: m.start, reverse=True):  # the last of a list decides for it
        listed = (
            following is not None
            and following.column == mention.column
            and _COORDINATED.fullmatch(text[mention.end : following.start]) is not None
            and negated_at[following.start]
        )
        negated_at[mention.start] = (
            bool(NEGATION_AFTER.match(text[mention.end : mention.end + NEAR]))
            or bool(NEGATION_BEFORE.search(lowered[max(0, mention.start - NEAR) : mention.start]))
            or listed
        )
        following = mention
    for mention in values:
        by_column[(mention.column, negated_at[mention.start])].append(mention)
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
    starts, ends = [m.start for m in numeric], [m.end for m in numeric]
    filters: list[Filter] = []
    used = Spans(taken)
    for match in _BETWEEN.finditer(text):
        if used.overlaps(match.span()) or not re.search(r"between|の間|の範囲|~|から", match.group(), re.IGNORECASE):
            continue
        low, high = _value(match.group("a")), _value(match.group("b"))
        column = _nearest(numeric, starts, ends, match.start(), match.end()) or default_column
        if low is not None and high is not None and column and low <= high:
            filters.append(Filter(column=column, op="between", value=[low, high], text=match.group().strip()))
            used.add(match.span())
    for value, match in numbers(text):
        if used.overlaps(match.span()):
            continue
        op = _comparison(text, match.start(), match.end(), language)
        if op is None:
            continue
        unit = _unit_concept(text, match.start(), match.end())
        if unit is not None:  # 35歳以上: only an age column; with none (or two), the number stays unread
            column = _by_concept(unit, info, mentions)
        else:
            # 10マイル以上: the column whose header gives the unit, before the nearest column named
            column = (
                _by_header_unit(text, match.end(), info)
                or _named_after(numeric, starts, text, match.end())
                or _nearest(numeric, starts, ends, match.start(), match.end())
                or default_column
            )
        if column is not None and not _plausible(value, info.column(column)):
            column = _only_plausible(value, info) or column  # "under 30" beside salary: the one column it fits
        if column is None:
            continue
        if match.group("percent"):
            column_info = info.column(column)
            if column_info and isinstance(column_info.maximum, float) and column_info.maximum <= 1:
                value /= 100  # 10% of a column holding fractions
        filters.append(Filter(column=column, op=op, value=value, text=match.group().strip()))
        used.add(match.span())
    return filters


# A unit between a number and its comparison: 30度以上, 5時間未満, 10マイル以上.
_UNIT: Final = r"[^\s\d、。,.?？!（）()]{1,4}(?=以上|以下|未満|超|を超|より)"
_UNIT_AFTER: Final = re.compile(rf"\s*(?P<unit>{_UNIT})")


def _by_header_unit(text: str, end: int, info: DataFrameInfo) -> str | None:
    """10マイル以上 with no column named: the one numeric column whose header gives that unit (距離(マイル)),
    not a rate per it (ペース(分/マイル))."""
    found = _UNIT_AFTER.match(text, end)
    if found is None:
        return None
    unit = found.group("unit")
    pattern = re.compile(rf"[(（\[]\s*{re.escape(unit)}\s*[)）\]]")
    holders = [c.name for c in info.column_info if c.kind == "number" and pattern.search(c.name)]
    return holders[0] if len(holders) == 1 else None


def _comparison(text: str, start: int, end: int, language: Language) -> Op | None:
    after = text[end : end + 16]
    # A unit between the number and the comparison: 30度以上, 5時間未満, 5 nights or more.
    after = re.sub(rf"^\s*(?:{_UNIT}|[a-z]+(?=\s+or\s))?\s*", "", after)
    for op, pattern in COMPARISONS:
        if re.match(pattern, after):
            return op  # type: ignore[return-value]
    trailing = re.match(
        r"or (?:more|above|higher|greater|over|older|later)\b|or (?:less|fewer|below|lower|under|younger|earlier)\b",
        after,
    )
    if trailing:
        return ">=" if re.match(r"or (?:more|above|higher|greater|over|older|later)", trailing.group()) else "<="
    before = text[max(0, start - 40) : start].lower()
    for op, pattern in COMPARISONS_EN:
        if re.search(rf"(?:{pattern})\s*(?:of\s+|than\s+)?[$¥]?\s*$", before):
            return op  # type: ignore[return-value]
    return None


# Units that say which measure a number is of, whatever column is named nearest: 10歳未満 is an age.
_UNIT_CONCEPTS = ((re.compile(r"^\s*(?:歳|才|years?[ -]old\b|yrs? old\b)", re.IGNORECASE), "age"),)


def _plausible(value: float, column: ColumnInfo | None) -> bool:
    """Whether a number could bound the column: within a factor of ten of its values (30 bounds no
    salary of 35,000 to 160,000; 100 still bounds an age)."""
    if column is None or not isinstance(column.minimum, int | float) or not isinstance(column.maximum, int | float):
        return True
    low, high = float(column.minimum), float(column.maximum)
    return not ((low > 0 and value < low / 10) or (high > 0 and value > high * 10))


def _only_plausible(value: float, info: DataFrameInfo) -> str | None:
    """The one numeric column a number could bound, if exactly one can."""
    fitting = [
        c.name
        for c in info.column_info
        if c.kind == "number" and c.unique > 2 and _within(value, c) and _plausible(value, c)
    ]
    return fitting[0] if len(fitting) == 1 else None


def _within(value: float, column: ColumnInfo) -> bool:
    """The number lies in the column's range, give or take half of it (30 in ages 21 to 65)."""
    if not isinstance(column.minimum, int | float) or not isinstance(column.maximum, int | float):
        return False
    low, high = float(column.minimum), float(column.maximum)
    slack = (high - low) / 2
    return low - slack <= value <= high + slack


def _unit_concept(text: str, start: int, end: int) -> str | None:
    """The concept the unit around a number belongs to (35歳, "aged 35": an age), if it has one."""
    after = text[end : end + 12]
    if _AGED.search(text[max(0, start - 20) : start]):
        return "age"
    return next((concept for unit, concept in _UNIT_CONCEPTS if unit.match(after)), None)


_AGED: Final = re.compile(
    r"\b(?:aged\s+(?:(?:over|under|above|below)\s+)?|(?:younger|older)\s+than\s+)$", re.IGNORECASE
)


def _by_concept(concept_word: str, info: DataFrameInfo, mentions: list[Mention]) -> str | None:
    """The numeric column of a unit's concept (the age column for 歳): the only one, or the only one
    the question names (母親の年齢 among two ages)."""
    columns = [
        c.name
        for c in info.column_info
        if c.kind == "number" and any(concept_word in concept.words for concept, _ in concepts_for(c.name))
    ]
    named = [c for c in columns if any(m.column == c for m in mentions)]
    return columns[0] if len(columns) == 1 else named[0] if len(named) == 1 else None


_UNIT_GAP = re.compile(r"\s*(?:[a-z]+\s+(?:of\s+)?)?", re.IGNORECASE)


def _named_after(numeric: list[Mention], starts: list[int], text: str, end: int) -> str | None:
    """The column a number counts when it is named right after it: "more than 20 years of service",
    "at least 3 children" (at most a unit word between)."""
    after = bisect_left(starts, end)
    if after < len(numeric) and _UNIT_GAP.fullmatch(text[end : numeric[after].start]) is not None:
        return numeric[after].column
    return None


def _nearest(numeric: list[Mention], starts: list[int], ends: list[int], start: int, end: int) -> str | None:
    """The numeric column a number compares: the closest one before it, else after it.

    ``numeric`` is in order of position and its spans do not overlap, so a bisection of their
    ``starts`` and ``ends`` finds the neighbours (thousands of numbers and names stay fast).
    """
    before = bisect_right(ends, start)
    if before and start - numeric[before - 1].end <= 30:
        return numeric[before - 1].column
    after = bisect_left(starts, end)
    if after < len(numeric) and numeric[after].start - end <= 30:
        return numeric[after].column
    return None


def _value(text: str) -> float | None:
    found = numbers(text)
    return found[0][0] if found else None


def is_number(info: DataFrameInfo, column: str) -> bool:
    found = info.column(column)
    return found is not None and found.kind == "number"

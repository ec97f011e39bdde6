"""The groups a question asks for: the column its rows are broken down by (地域別, by region, 各店舗)
and the time unit, a second column crossed with it (店舗×カテゴリ, 店舗とカテゴリ別), the group asked
about without 別 (一番売れた商品, which party size), and a 'by' that names who did it, not a breakdown.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from itertools import pairwise
from typing import Final

from bunseki.brain.analyst.offline.columns import Mention
from bunseki.brain.analyst.offline.plan import Filter, TimeUnit
from bunseki.brain.analyst.offline.vocab import EACH_BEFORE, GROUP_AFTER, GROUP_BEFORE, TIME_UNITS
from bunseki.brain.lexicon import weekday_of
from bunseki.data.summary import DataFrameInfo

# Words around "あたり" / "per" are bounded: an unbounded lazy run before the keyword is retried
# from every position of a long question, which is quadratic (a pasted text kept a core busy).
PHRASE = 40


CROSS_MAX = 50  # a cross table's second column: few enough values to read as columns


JOIN_GAP = 8  # 別・, " and the ": the characters between two columns joined into one breakdown


def grouping(
    text: str, lowered: str, mentions: list[Mention], info: DataFrameInfo
) -> tuple[str | None, TimeUnit | None]:
    unit: TimeUnit | None = None
    for name, pattern in TIME_UNITS:
        found = re.search(pattern, lowered)
        if found and not (name == "daytype" and _names_a_value(found.group(), info)):
            unit = name  # type: ignore[assignment]
            break
    category_ends = sorted(m.end for m in mentions if (c := info.column(m.column)) is not None and c.kind != "number")
    for mention in mentions:
        column = info.column(mention.column)
        if column is None or column.kind == "datetime":
            continue
        before = max(0, mention.start - PHRASE)  # a marker is next to its column, and a window stays linear
        marked = (
            GROUP_AFTER.match(text[mention.end : mention.end + PHRASE])
            or GROUP_BEFORE.search(lowered[before : mention.start])
            or EACH_BEFORE.search(text[before : mention.start])
        )
        if not marked:
            continue
        if column.kind != "number":
            return mention.column, unit
        # "top 2 stores by sales": a category named just before means sales ranks the stores, not groups them
        near = bisect_left(category_ends, mention.start - 30)
        ranked_by = near < len(category_ends) and category_ends[near] < mention.start
        if column.unique <= 30 and not ranked_by:
            return mention.column, unit
    return None, unit


def _names_a_value(word: str, info: DataFrameInfo) -> bool:
    """平日 or weekend that is a value of a column of the table: a condition on it, not a day type."""
    return any(word in (v.casefold() for v in c.values or ()) for c in info.column_info)


# Two columns joined into one breakdown: 店舗×カテゴリ, 店舗とカテゴリ別, by store and category.
_JOINED = re.compile(r"^\s*(?:別|ごと)?\s*(?:×|✕|\*|x|・|、|,|と|及び|および|and|&|/)\s*(?:the\s+)?$")


def cross_group(
    text: str, lowered: str, mentions: list[Mention], info: DataFrameInfo, group: str, filters: list[Filter]
) -> str | None:
    """A second category column the rows are broken down by too, next to ``group`` or marked itself."""
    conditioned = {c for f in filters for c in f.columns()}
    # where the group's mentions end and start: a joined column is at most a few characters away
    ends = {m.end for m in mentions if m.column == group}
    starts = {m.start for m in mentions if m.column == group}
    for mention in mentions:
        column = info.column(mention.column)
        if (
            column is None
            or mention.column in (group, *conditioned)
            or column.kind not in ("category", "text", "boolean")
            or not 1 < column.unique <= CROSS_MAX
        ):
            continue
        before = max(0, mention.start - PHRASE)
        marked = (
            GROUP_AFTER.match(text[mention.end : mention.end + PHRASE])
            or GROUP_BEFORE.search(lowered[before : mention.start])
            or EACH_BEFORE.search(text[before : mention.start])
        )
        joined = any(
            (mention.start - gap in ends and _JOINED.match(lowered[mention.start - gap : mention.start]))
            or (mention.end + gap in starts and _JOINED.match(lowered[mention.end : mention.end + gap]))
            for gap in range(JOIN_GAP + 1)
        )
        if marked or joined:
            return mention.column
    return None


def crossed(lowered: str, mentions: list[Mention], info: DataFrameInfo) -> str | None:
    """The first of two category columns written as 店舗×カテゴリ or 店舗とカテゴリの組み合わせ."""
    kinds = ("category", "text", "boolean")
    named = [m for m in mentions if (c := info.column(m.column)) is not None and c.kind in kinds]
    for first, second in pairwise(named):
        between, after = lowered[first.end : second.start], lowered[second.end : second.end + PHRASE]
        if first.column != second.column and (
            re.fullmatch(r"\s*[×✕]\s*", between)
            or (_JOINED.match(between) and re.match(r"\s*(?:の)?\s*(?:組み?合わせ|combinations?\b|pairs?\b)", after))
        ):
            return first.column
    return None


def first_at(mentions: list[Mention], column: str) -> int:
    return min((m.start for m in mentions if m.column == column), default=0)


def day_names(info: DataFrameInfo) -> str | None:
    """A column whose values are all days of the week: weekdays and the weekend can be told by it."""
    for column in info.column_info:
        if column.values and all(weekday_of(str(v)) is not None for v in column.values):
            return column.name
    return None


_ORDERING = re.compile(
    r"(?:一番|いちばん|最も|もっとも|最|多い|少ない|高い|低い|大きい|小さい|長い|短い|売れた|多かった|少なかった|"
    r"高かった|低かった|大きかった|小さかった)"
)


def ranked_entity(text: str, mentions: list[Mention], info: DataFrameInfo) -> str | None:
    """'一番売れた商品', '最も少なかったカテゴリ', '多い倉庫を': the category named right after an ordering word."""
    for mention in mentions:
        column = info.column(mention.column)
        if column is None or column.kind not in ("category", "text") or column.unique < 2:
            continue
        before = text[max(0, mention.start - 8) : mention.start]
        found = list(_ORDERING.finditer(before))
        if found and mention.start - (mention.start - len(before) + found[-1].end()) <= 3:
            return mention.column
    return None


_WHICH = re.compile(r"\bwhich\b|\bwhat\b|どの")


def which_number(lowered: str, mentions: list[Mention], info: DataFrameInfo) -> str | None:
    """'Which party size has…', 'どの人数が…': a numeric column of few values asked about as a group."""
    starts = [m.start for m in mentions]
    for asked in _WHICH.finditer(lowered):
        index = bisect_left(starts, asked.end())
        while index < len(mentions) and mentions[index].start - asked.end() <= 12:  # the few just after it
            column = info.column(mentions[index].column)
            if column is not None and column.kind == "number" and 1 < column.unique <= 20:
                return mentions[index].column
            index += 1
    return None


_ARRANGED: Final = re.compile(
    r"\b(?:grouped|broken|split|sorted|ordered|ranked|divided|categori[sz]ed|aggregated|"
    r"summari[sz]ed|segmented|classified|tabulated|totall?ed|averaged|counted|listed)\s+(?:down\s+)?by\s+(?:the\s+)?$"
)


def agent_by(lowered: str, mentions: list[Mention], info: DataFrameInfo, group_by: str) -> bool:
    """'How many orders were placed by members?', 'how many people were affected by breaches in 2013': a
    passive 'by' names who or what did it (a condition, or the rows themselves), not a breakdown; 'grouped
    by', 'broken down by' still group."""
    column = info.column(group_by)
    if column is None or not re.search(r"\bhow many\b", lowered):
        return False
    for mention in mentions:
        if mention.column == group_by:
            before = lowered[max(0, mention.start - 30) : mention.start]
            passive = re.search(r"\b(?:\w+ed|made|paid|bought|written|done)\s+by\s+(?:the\s+)?$", before)
            if passive and not _ARRANGED.search(before):
                return True
    return False

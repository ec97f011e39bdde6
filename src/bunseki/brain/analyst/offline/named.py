"""The measure a question names, checked against the table before anything is computed.

"What is the average profit by region?" over a table with ``sales`` and no ``profit`` must not
be answered with the mean of ``sales``: a number about another column looks right and is not.
The word next to a statistic (after "average" / "total of"; before or after 平均 / 合計) is
the measure the person means. When no column was found for the question's measure, this
module finds that word and says what is wrong with it: no column has that name, the column it
names holds text, or the column is entirely empty. The analyst then asks instead of guessing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final, Literal

from bunseki.brain.analyst.offline.columns import Mention
from bunseki.brain.analyst.offline.plan import Clarification
from bunseki.brain.analyst.offline.vocab import STATS
from bunseki.brain.language import foreign_language
from bunseki.data.summary import ColumnInfo, DataFrameInfo
from bunseki.domain import Language

MEASURE_STATS: Final = ("sum", "mean", "median", "std", "var")  # statistics that need a numeric column
NEAR: Final = 24  # characters either side of a statistic word where its measure is written
_STAT_WORDS: Final = [(stat, re.compile(pattern)) for stat, pattern in STATS if stat in MEASURE_STATS]
_HIRAGANA = re.compile(r"[\u3040-\u309f]")
_WORD_EN = re.compile(r"\s*(?:(?:of|the|all|our|my|its|your)\s+)*(?P<word>[^\W\d_][\w-]*)")
# Words that stand next to a statistic without naming a measure ("the average of all …",
# 「全体の平均」, 「月別の合計」): function words, whole-data words and grouping markers.
_GENERIC_EN_WORDS: Final = (
    "a an the of for in on at by per across over from to into and or is was are were be been all overall "
    "each every value values number numbers figure figures data it this that these those with without "
    "between among when where which what how up so far daily weekly monthly quarterly yearly annual "
    "annually row rows record records column columns group groups category categories than as count "
    "counts dev deviation"
)
_GENERIC_JA_WORDS: Final = (
    "全体 全部 全て 全 各 総 データ 数値 値 額 量 数 件数 行 列 期間 "
    "全期間 今年 去年 昨年 今月 先月 今週 先週 年 月 週 日 年間 月間 "
    "週間 日間 過去 直近 最近 一日 一日当たり グループ 各グループ"
)
_GENERIC_EN: Final = frozenset(_GENERIC_EN_WORDS.split())
_GENERIC_JA: Final = frozenset(_GENERIC_JA_WORDS.split())
_GROUP_MARKS = ("別", "ごと", "毎", "単位", "当たり", "あたり")

Problem = Literal["missing", "text", "empty"]


@dataclass(frozen=True)
class NamedMeasure:
    """A word the question uses as its measure, and why it cannot be computed."""

    word: str
    problem: Problem
    column: str | None = None


def unusable_measure(
    lowered: str,
    text: str,
    mentions: list[Mention],
    values: list[tuple[int, int]],
    info: DataFrameInfo,
    *,
    chosen: str | None,
    skip: set[str],
) -> NamedMeasure | None:
    """The measure the question names when it cannot be computed from the table, else None.

    ``chosen`` is the numeric column the question named, if any: only its emptiness matters then.
    Otherwise the words next to the statistics are read. ``mentions`` are the columns found in
    the question, ``values`` the spans of category values (関東, East), ``skip`` the columns used
    otherwise (grouping, dates, filters).
    """
    if chosen is not None:
        column = info.column(chosen)
        if column is not None and _entirely_empty(column, info):
            word = next((m.text for m in mentions if m.column == chosen), chosen)
            return NamedMeasure(word, "empty", chosen)
        return None
    for mention in mentions:
        column = info.column(mention.column)
        if column is not None and mention.column not in skip and _entirely_empty(column, info):
            return NamedMeasure(mention.text, "empty", mention.column)
    if foreign_language(text):  # words of a language the analyst does not read are not column names
        return None
    starts = {m.start: m for m in mentions}
    ends = {m.end: m for m in mentions}
    value_starts = {start for start, _ in values}
    value_ends = {end for _, end in values}
    for _, pattern in _STAT_WORDS:
        for match in pattern.finditer(lowered):
            for side in (
                _before(text, match.start(), ends, value_ends),
                _after(text, match.end(), starts, value_starts),
            ):
                found = _judge(side, info, skip)
                if found is not None:
                    return found
    return None


def measure_question(named: NamedMeasure, info: DataFrameInfo, language: Language) -> Clarification:
    """What to ask when the named measure cannot be used, always with the columns that could be meant."""
    candidates = numeric_candidates(info)
    shown = ("、" if language == "ja" else ", ").join(candidates[:12])
    everything = ("、" if language == "ja" else ", ").join(info.columns[:20])
    if language == "ja":
        problem = {
            "missing": f"「{named.word}」という列はこのデータにありません。",
            "text": f"列「{named.column}」は数値ではなく文字として読み込まれているため、計算できません。",
            "empty": f"列「{named.column}」はすべて空欄（{info.shape[0]:,}行すべて欠損）のため、計算できません。",
        }[named.problem]
        ask = (
            f"どの列を使いますか？ 数値の列: {shown}"
            if candidates
            else f"このデータには数値の列がありません（列: {everything}）。"
        )
    else:
        problem = {
            "missing": f"There is no column called '{named.word}' in this data.",
            "text": f"The column '{named.column}' holds text, not numbers, so it cannot be computed.",
            "empty": f"The column '{named.column}' is entirely empty (all {info.shape[0]:,} rows are missing).",
        }[named.problem]
        ask = (
            f"Which column should I use? Numeric columns: {shown}"
            if candidates
            else f"This data has no numeric column (columns: {everything})."
        )
    question = f"{problem}{ask}" if language == "ja" else f"{problem} {ask}"
    return Clarification(question=question, reason=f"measure {named.problem}: {named.word}")


def numeric_candidates(info: DataFrameInfo) -> list[str]:
    """Numeric columns that hold at least one value."""
    return [c.name for c in info.column_info if c.kind == "number" and not _entirely_empty(c, info)]


def _entirely_empty(column: ColumnInfo, info: DataFrameInfo) -> bool:
    return info.shape[0] > 0 and column.missing >= info.shape[0]


# A side is (word, column mention, or a category value) next to a statistic word.
_Side = tuple[str, Mention | None, bool]


def _before(text: str, end: int, ends: dict[int, Mention], value_ends: set[int]) -> _Side:
    """The Japanese word written before 平均 / 合計 (利益の平均, 地域別利益合計)."""
    end = len(text[max(0, end - NEAR) : end].rstrip()) + max(0, end - NEAR)
    particle = text[max(0, end - 1) : end] == "の"
    end -= particle
    if end in ends:
        return "", ends[end], False
    if end in value_ends:
        return "", None, True
    start = end
    while start > max(0, end - NEAR) and start not in ends and start not in value_ends:
        char = text[start - 1]
        if _HIRAGANA.match(char) or not (char.isalnum() or char in "ー・_"):
            break
        start -= 1
    word = _strip_marks(text[start:end])
    if word.isascii() and not particle:  # English names the measure after the statistic, not before
        return "", None, False
    return word, None, False


def _after(text: str, start: int, starts: dict[int, Mention], value_starts: set[int]) -> _Side:
    """The word after the statistic: 'average profit', 'total of the sales', 平均利益, 合計の金額."""
    window = text[start : start + NEAR]
    english = _WORD_EN.match(window)
    if english and english.group("word").isascii():
        word_start = start + english.start("word")
        if word_start in starts:
            return "", starts[word_start], False
        return english.group("word"), None, word_start in value_starts
    offset = len(window) - len(window.lstrip())
    if window[offset : offset + 1] == "の":
        offset += 1
    first = start + offset
    if first in starts:
        return "", starts[first], False
    end = first
    while end < min(len(text), first + NEAR) and end not in starts and end not in value_starts:
        char = text[end]
        if _HIRAGANA.match(char) or not (char.isalnum() or char in "ー・_"):
            break
        end += 1
    return _strip_marks(text[first:end]), None, first in value_starts


def _judge(side: _Side, info: DataFrameInfo, skip: set[str]) -> NamedMeasure | None:
    word, mention, is_value = side
    if mention is not None:
        column = info.column(mention.column)
        if column is not None and column.kind in ("category", "text") and mention.column not in skip:
            return NamedMeasure(mention.text, "text", mention.column)
        return None
    if is_value or not word or _generic(word):
        return None
    return NamedMeasure(word, "missing")


def _generic(word: str) -> bool:
    lowered = word.lower()
    return (
        lowered in _GENERIC_EN
        or word in _GENERIC_JA
        or any(char.isdigit() for char in word)
        or len(word) < 2
        or word.endswith(("年", "月", "日", "週", "年度", "期"))
    )


def _strip_marks(word: str) -> str:
    for mark in _GROUP_MARKS:
        word = word.removeprefix(mark).removesuffix(mark)
    return word

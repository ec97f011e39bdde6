"""The measure a plan is about and its statistic: the numeric column the question means (or the
rows, counted), asked back when it cannot be told, and the total or the mean when no statistic is
named, with the assumption recorded.
"""

from __future__ import annotations

import re
from typing import Final

from bunseki.brain.analyst.offline.asking import no_numeric
from bunseki.brain.analyst.offline.columns import ID_LIKE
from bunseki.brain.analyst.offline.intent import REVENUE_NAMES
from bunseki.brain.analyst.offline.named import measure_question, numeric_candidates, unusable_measure
from bunseki.brain.analyst.offline.plan import Clarification, Plan, Task
from bunseki.brain.analyst.offline.reading import Reading
from bunseki.brain.analyst.offline.vocab import ADDITIVE, NON_ADDITIVE, Stat
from bunseki.data.summary import DataFrameInfo


def measure(r: Reading, info: DataFrameInfo, numeric: list[str], task: Task) -> str | Clarification | None:
    """The numeric column the question is about; asks when it cannot be told."""
    grouping = {r.group_by, r.date_column}
    candidates = [column for column in numeric if column not in grouping] or numeric
    skip = {column for column in grouping if column} | {c for f in r.filters for c in f.columns()}
    # 降水量が10mm以上の日の最高気温の平均: the measure is the column the condition is not on
    free = [column for column in candidates if column not in skip]
    chosen = (free or candidates)[0] if candidates else None
    if not free and chosen in skip and _bounds_only(r, chosen):
        chosen = None  # 寝室5部屋以上の家で、いちばん安く売れた: the condition's column, named once, is no measure
    if (
        chosen is None
        and task in ("top", "group", "share", "trend", "growth")
        and (_count_words(r) or _QUANTITY.search(r.lowered) or task == "share")
    ):
        return None  # counting rows per group or per period: "the most returns", 受診が一番多かった, 男女比
    derived = chosen is not None and chosen not in info.columns  # 客単価: computed from two named columns
    unusable = (
        None
        if derived
        else unusable_measure(r.lowered, r.text, r.mentions, r.value_spans, info, chosen=chosen, skip=skip)
    )
    if unusable is not None:  # a word names a measure the table does not have: ask, never substitute
        return measure_question(unusable, info, r.language)
    if chosen is not None:
        return chosen
    measures = [c for c in numeric_candidates(info) if not ID_LIKE.search(c)]
    if len(measures) == 1:
        r.assumptions.append(_assume_measure(r, measures[0]))
        return measures[0]
    additive = [name for name in measures if ADDITIVE.search(name)]
    if additive and task in ("group", "top", "trend", "share", "growth"):
        r.assumptions.append(_assume_measure(r, additive[0]))
        return additive[0]
    if task in ("top", "group", "share", "trend") and not measures:
        return None
    measures = measures or numeric_candidates(info)  # identifiers only: still better than no choice
    if not measures:
        return no_numeric(r, info)
    listed = "、".join(measures[:12]) if r.language == "ja" else ", ".join(measures[:12])
    if r.language == "ja":
        question = f"どの数値の列について計算しますか？ 候補: {listed}"
    else:
        question = f"Which numeric column should I use? Candidates: {listed}"
    return Clarification(question=question, reason="no measure named")


def default_stat(stat: Stat | None, target: str | None, plan: Plan, info: DataFrameInfo) -> Stat:
    if stat in ("sum", "mean", "median", "quantile", "std", "var", "min", "max", "count"):
        return stat
    name = target or ""
    column = info.column(name)
    # Whole non-negative numbers (sessions, conversions, nights) are counts, and counts add up.
    counts = bool(
        column
        and column.dtype.lower().startswith(("int", "uint"))
        and isinstance(column.minimum, int | float)
        and column.minimum >= 0
        and not ID_LIKE.search(name)
    )
    derived = plan.derived if plan.derived and name == plan.derived.name else None
    if derived and derived.op == "*" and name in REVENUE_NAMES:
        chosen: Stat = "sum"  # 売上 = 単価 × 数量: an amount, and amounts add up
    elif derived or NON_ADDITIVE.search(name) or not (ADDITIVE.search(name) or counts):
        chosen = "mean"
    else:
        chosen = "sum"
    word = {"sum": ("合計", "total"), "mean": ("平均", "average")}[chosen]
    plan.assumptions.append(
        f"集計方法の指定がないため、{name} の{word[0]}を使いました。"
        if plan.language == "ja"
        else f"No statistic was named, so the {word[1]} of {name} is used."
    )
    return chosen


_COUNTING: Final = re.compile(r"何\s*[\u4e00-\u9fff]|\bhow many\b|件数|人数|\bnumber of\b|\bcount\b")


def _bounds_only(r: Reading, column: str) -> bool:
    """The column is named once, as the bound of a condition (5部屋以上), and the question counts nothing:
    what it ranks or computes is another, unnamed measure."""
    once = sum(m.column == column for m in r.mentions) <= 1
    bounded = any(f.column == column and f.op in (">", ">=", "<", "<=", "between") for f in r.filters)
    return once and bounded and not _COUNTING.search(r.lowered) and not _count_words(r)


def _assume_measure(r: Reading, column: str) -> str:
    if r.language == "ja":
        return f"対象の数値列が明示されていないため、{column} を使いました。"
    return f"No numeric column was named, so {column} is used."


def _count_words(r: Reading) -> bool:
    """A count was asked (件数, 取引数, how many) or words that rank by how often (人気, most common)."""
    return any(stat == "count" for _, stat in r.stats) or bool(
        re.search(
            r"人数|者数|者の数|数が多|多い順|頻度|よく使|多く使|人気|frequen|often|most common|least common|popular|"
            r"\bnumber of (?:new )?[a-z]+s\b",
            r.lowered,
        )
    )


# With no measure named, "the most", 一番多い, the busiest are about how many rows, not a sum of some column.
_QUANTITY = re.compile(
    r"多い|多かった|多く|少ない|少なかった|少なく|\bmost\b|\bfewest\b|\bleast\b|\bbusiest\b|\bquietest\b"
)

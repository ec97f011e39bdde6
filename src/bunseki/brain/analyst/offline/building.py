"""A plan filled for its task: the slots ``build`` fills from a `Reading` once the task is chosen
(a ratio, a correlation, a count or an overview, outliers and distributions, a growth or a trend,
group-by aggregations, top-N lists and shares, the extreme row named by a column), asking back
when a needed slot cannot be filled.
"""

from __future__ import annotations

import re
from typing import Final

from bunseki.brain.analyst.offline.asking import ask_group
from bunseki.brain.analyst.offline.columns import ID_LIKE, NAME_WORDS, row_label
from bunseki.brain.analyst.offline.filters import is_number
from bunseki.brain.analyst.offline.periods import over_time, period_filters
from bunseki.brain.analyst.offline.plan import Clarification, Plan, Task
from bunseki.brain.analyst.offline.reading import Reading, blank_spans
from bunseki.brain.analyst.offline.target import default_stat, measure
from bunseki.brain.analyst.offline.tasks import (
    SHAPE,
    breakdowns,
    counted_entity,
    distinct_target,
    flag_rate,
    how_many_measure,
    main_stat,
    wants_one,
    wants_smallest,
)
from bunseki.brain.analyst.offline.vocab import NON_ADDITIVE, Stat
from bunseki.data.summary import DataFrameInfo

OUTLIER_THRESHOLD = (
    r"(?:threshold|しきい値|閾値|>|超|を超える)?\s*(\d+(?:\.\d+)?)\s*(?:σ|sigma|standard deviations|sd\b|倍)|"
    r"(?:\|\s*z\s*\||z\s*-?\s*(?:スコア|score))[^\d]{0,24}?(\d+(?:\.\d+)?)"
)


def build(task: Task, r: Reading, info: DataFrameInfo) -> Plan | Clarification:
    """Fill the plan's slots for ``task``; asks back when a needed slot cannot be filled."""
    plan = Plan(
        task=task,
        language=r.language,
        filters=r.filters,
        derived=r.derived,
        date_column=r.date_column,
        assumptions=list(r.assumptions),
    )
    if task == "ratio":
        return _ratio_plan(plan, r, info)
    if task == "span":
        plan.span = r.span
        return plan
    if r.periods and task != "growth":
        plan.filters = [*plan.filters, *period_filters(r)]
    numeric = [r.derived.name, *r.numeric(info)] if r.derived else r.numeric(info)
    if task in _WITHOUT_MEASURE:
        return _WITHOUT_MEASURE[task](plan, r, info, numeric)
    target = measure(r, info, numeric, task)
    if isinstance(target, Clarification):
        return target
    plan.target = target
    plan.assumptions = list(r.assumptions)  # measure() may have assumed the measure: the answer says so
    if task in ("outliers", "distribution"):
        return _shape(plan, r, info)
    plan.stat = default_stat(main_stat(r), target, plan, info) if target is not None else "count"
    if plan.stat == "count" and target is not None and how_many_measure(r, info):
        plan.stat = "sum"  # how many individuals were affected, over a count column: its total
    if target is None and task in ("trend", "growth", "group") and (entity := counted_entity(r, info)):
        plan.target, plan.stat = entity, "nunique"  # 注文件数 per day over order lines: the orders, not the lines
    if r.duration and r.duration.spans and target == r.duration.derived.name and (since := _SINCE.search(r.lowered)):
        plan.stat = "min" if since.group("last") else "max"  # days since the last snow: the fewest
    if plan.stat == "quantile" and r.quantile is not None:
        plan.quantile = r.quantile.q
    if task == "stat":
        return _as_chart(plan, info) if "chart" in r.words else plan
    if task in ("growth", "trend"):
        return over_time(plan, r, info)
    return _by_group(plan, r, info)


_SINCE = re.compile(r"(?P<last>最後|最新|直近|\blast\b|\blatest\b|most recent)|最初|初めて|\bfirst\b|\bearliest\b")


_TOTAL: Final = re.compile(r"合計|総額|総量|総計|\btotal\b|\bsum\b")


def _ratio_plan(plan: Plan, r: Reading, info: DataFrameInfo) -> Plan:
    """A share or a change: the measure (rows when none is named apart from the conditions) and its subsets."""
    assert r.ratio is not None
    ratio = r.ratio
    split = ratio.part + ratio.base
    split_columns = {c for f in split for c in f.columns()}
    plan.ratio = ratio
    plan.filters = [f for f in plan.filters if f.column not in split_columns]
    if len(r.periods) == 1 and ratio.kind == "share":
        plan.filters += period_filters(r)
    numeric = [r.derived.name, *r.numeric(info)] if r.derived else r.numeric(info)
    conditioned = split_columns | {c for f in r.filters for c in f.columns()}  # 10歳未満の割合: no measure of age
    measures = [c for c in numeric if c not in conditioned and c != r.date_column]
    if ratio.kind == "share" and not _TOTAL.search(r.lowered):  # a share of weights or ages is no share: of rows
        measures = [c for c in measures if not NON_ADDITIVE.search(c)]
    plan.target = ratio.part_column or (measures[0] if measures else None)
    stat = main_stat(r)
    plan.stat = stat if plan.target and stat in ("mean", "median", "max", "min") else "sum"
    return plan


def _as_chart(plan: Plan, info: DataFrameInfo) -> Plan:
    """'関東の売上合計をグラフに': one number makes no chart, so compare it with its peers by group."""
    singled = next((f for f in plan.filters if f.op in ("==", "in") and is_category(info, f.column)), None)
    column = (
        singled.column
        if singled
        else next(
            (
                c.name
                for c in info.column_info
                if c.kind == "category" and 1 < c.unique <= 30 and not ID_LIKE.search(c.name)
            ),
            None,
        )
    )
    if column is None:
        return plan
    plan.task, plan.group_by, plan.chart = "group", column, "bar"
    plan.filters = [f for f in plan.filters if f.column != column]
    plan.assumptions.append(
        f"グラフにするため、{column}別に比較しました。"
        if plan.language == "ja"
        else f"To chart it, {column} groups are compared."
    )
    return plan


def is_category(info: DataFrameInfo, column: str) -> bool:
    found = info.column(column)
    return found is not None and found.kind in ("category", "boolean")


def _correlation_plan(plan: Plan, r: Reading, info: DataFrameInfo, numeric: list[str]) -> Plan:
    plan.target, plan.second = [*numeric, None, None][:2]
    if re.search(r"kendall|ケンドール", r.lowered):
        plan.method = plan.method.model_copy(update={"corr": "kendall"})
    elif re.search(r"spearman|スピアマン|順位相関|rank correlation", r.lowered):
        plan.method = plan.method.model_copy(update={"corr": "spearman"})
    plan.chart = "scatter" if plan.task == "correlation" else "heatmap"
    return plan


def _column_plan(plan: Plan, r: Reading, info: DataFrameInfo, numeric: list[str]) -> Plan:
    """Missing values, a distinct count, a row count or an overview: at most one column named."""
    if plan.task == "distinct":
        plan.target = distinct_target(r, info)
    elif plan.task == "duplicates":  # 顧客IDの重複: rows equal in the columns named, else in every column
        plan.columns = list(dict.fromkeys(m.column for m in r.mentions))
    elif plan.task == "count":
        plan.stat = "count"
        plan.shape = bool(SHAPE.search(r.lowered) and not r.filters)
    else:
        plan.target = r.mentions[0].column if r.mentions else None
    return plan


_WITHOUT_MEASURE = {
    "correlation": _correlation_plan,
    "correlation_matrix": _correlation_plan,
    "missing": _column_plan,
    "duplicates": _column_plan,
    "distinct": _column_plan,
    "count": _column_plan,
    "describe": _column_plan,
}


def _shape(plan: Plan, r: Reading, info: DataFrameInfo) -> Plan:
    """Outliers (z-score or IQR, with the threshold the question gives) and distributions."""
    target = plan.target
    if plan.task == "outliers":
        plan.outlier_method = "iqr" if re.search(r"iqr|四分位|interquartile|quartile", r.lowered) else "zscore"
        threshold = re.search(OUTLIER_THRESHOLD, r.lowered)
        given = threshold and (threshold.group(1) or threshold.group(2))
        plan.threshold = float(given) if given else (1.5 if plan.outlier_method == "iqr" else 3.0)
        plan.chart = "hist"
        return plan
    numeric_target = (target and is_number(info, target)) or (r.derived is not None and target == r.derived.name)
    plan.chart = "hist" if numeric_target else "bar"
    return plan


_ASKS_NAME = re.compile(r"名前|氏名|\bnames?\b|\bwho\b|誰")


def _by_group(plan: Plan, r: Reading, info: DataFrameInfo) -> Plan | Clarification:
    """Group-by aggregations, top-N lists and shares."""
    group = r.group_by or _entity(r, info, plan.target)
    if (
        group is None
        and plan.task == "top"
        and plan.target
        and (group := row_label(info) or row_label(info, repeated=True))
    ):
        plan.rows = True  # 給与が高い上位5人: the rows themselves, named by their name or id
    if group is None and (r.form == "name" or r.entity_question) and plan.target:
        group = row_label(info, repeated=True)  # who was the youngest: a person, named by the name column
        if group is None and wants_one(r):  # 直径が一番大きかった嵐は: its name, though names repeat over rows
            group = next(
                (c.name for c in info.column_info if c.kind in ("text", "category") and NAME_WORDS.search(c.name)), None
            )
    if group is None and r.form == "date" and plan.target and r.date_column:
        group = r.date_column  # on which day was it coldest: the day of the coldest row
    if group is not None and ID_LIKE.search(group) and _ASKS_NAME.search(r.lowered):
        named = [c.name for c in info.column_info if c.kind in ("text", "category") and NAME_WORDS.search(c.name)]
        group = named[0] if named else group  # 会員の名前: the name column, not the member's id
    if group is None:
        return ask_group(r, info, plan.task)
    plan.group_by = group
    ordering = _row_extreme(r, info, group)
    if ordering is not None:  # the youngest winner: the row with the smallest age, not a group's total
        plan.stat, plan.ascending, plan.top_n, plan.chart = ordering, ordering == "min", r.top_n or 1, "bar"
        plan.assumptions = [a for a in plan.assumptions if "集計方法" not in a and "No statistic" not in a]
        return plan
    if plan.task in ("group", "top") and r.cross and r.cross != group:
        plan.cross = r.cross
    if plan.task == "share":  # 関東の割合: share of 関東 among all regions, so keep every region's rows
        focused = [f for f in plan.filters if f.column == group and f.op in ("==", "in")]
        plan.filters = [f for f in plan.filters if f not in focused]
        plan.focus = [v for f in focused for v in (f.value if isinstance(f.value, list) else [f.value])]
        _share_within(plan, r, info)
        conditioned = {c for f in plan.filters for c in f.columns()}
        mixed = [c for c in breakdowns(r, info) if c != group and c not in conditioned]
        if mixed and not plan.focus and not plan.within:
            plan.cross = mixed[0]  # 店舗別の支払方法の割合: each store's own mix of payment methods
    plan.chart = "bar"
    if plan.task == "top":
        plan.top_n = r.top_n or (1 if r.entity_question else 5)
        plan.ascending = r.ascending
        column = info.column(group)
        if r.top_n and column is not None and 0 < column.unique < r.top_n:  # ベスト10 of 4 stores: all of them
            plan.assumptions.append(
                f"上位{r.top_n}件が求められましたが、{group}は{column.unique}種類しかないため、すべてを示します。"
                if r.language == "ja"
                else f"The top {r.top_n} were asked for, but {group} has only {column.unique} values: all are shown."
            )
    elif plan.task == "group" and (wants_one(r) or r.entity_question):
        plan.top_n = 1
        plan.ascending = wants_smallest(r)
    return plan


# The extreme is one row's: 最も短い人, 一番若い選手, "the person with the highest …".
_ONE_ROW: Final = re.compile(
    r"(?:い|な|た|の)(?:人|者|方|選手|乗客|社員|従業員|会員|個体)(?:は|が|の|って|を)|"
    r"\bthe (?:person|one|individual|player|passenger|employee|member|character)\b"
)


_AGGREGATE: Final = re.compile(r"平均|合計|総|累計|件数|人数|回数|\baverage\b|\bmean\b|\btotal\b|\bsum\b|\bcount\b")


def _row_extreme(r: Reading, info: DataFrameInfo, group: str) -> Stat | None:
    """max or min when the question asks for the row where a measure is largest or smallest, named by
    a column that names rows (the youngest winner, 最も馬力が大きい車種), not for a group's aggregate."""
    column = info.column(group)
    rows = info.shape[0]
    one_row = column is not None and (column.kind == "datetime" or bool(_ONE_ROW.search(r.lowered)))
    if column is None or not rows or (column.unique < 0.5 * rows and not one_row):
        return None  # 教育年数が最も短い人の職種: one person's, so the group of the extreme row
    orderings = [stat for _, stat in r.stats if stat in ("max", "min")]
    unquoted = blank_spans(r.lowered, [(m.start, m.end) for m in r.mentions])  # 平均寿命 names a column
    if not orderings or _AGGREGATE.search(unquoted) or any(s not in ("max", "min") for _, s in r.stats):
        return None
    return orderings[0]


def _share_within(plan: Plan, r: Reading, info: DataFrameInfo) -> None:
    """カード払いの割合が一番高い店舗: which store has the highest share of card payments *among its own*
    payments. Ranking the stores' shares of all card payments would only rank their counts again.
    A yes/no column's rate (部署ごとの退職率) is always taken within each group."""
    flag = flag_rate(r, info)
    if flag is not None and plan.group_by != flag.column:
        plan.within, plan.filters = [flag], [f for f in plan.filters if f.column == plan.group_by and f is not flag]
        if plan.target == flag.column:  # 生存率 over a 0/1 column: the rate of rows, not a weighted sum
            plan.target = None
            plan.assumptions = [a for a in plan.assumptions if flag.column not in a]
        plan.ascending = wants_smallest(r)
        return
    if plan.focus or not (wants_one(r) or r.entity_question):
        return
    conditions = [f for f in plan.filters if plan.group_by not in f.columns() and r.date_column not in f.columns()]
    if len(conditions) != 1:  # 女性のカード払いの割合: which one is the scope cannot be told
        return
    plan.within = conditions
    plan.filters = [f for f in plan.filters if f not in conditions]
    plan.ascending = wants_smallest(r)


def _entity(r: Reading, info: DataFrameInfo, target: str | None) -> str | None:
    """The category column that groups rows when the question names one without 'by'."""
    compared = [f.column for f in r.filters if f.op == "in"]
    if compared:
        return compared[0]
    categorical = [c for c in r.categorical(info) if c != target]
    filtered = {f.column for f in r.filters if f.op in ("==", "in")}
    if "share" in r.words:
        named = [c for c in breakdowns(r, info) if c not in filtered]  # the gender ratio in Engineering
        singled = [f.column for f in r.filters if f.op == "==" and isinstance(f.value, str)]
        if singled and not named:  # 関東の割合: 関東's share among the regions
            return singled[0]
    for column in categorical:
        if column not in filtered:
            return column
    return categorical[0] if categorical else None

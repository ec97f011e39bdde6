"""From a question and a table summary to a `Plan`, or to a precise clarifying question.

The reading is deterministic: find the columns and values the question names, the row
conditions, the date window, the grouping and the statistic, then pick the task whose words
and slots fit. Whatever was assumed (a default statistic, the measure when none was named) is
recorded so the report can say so.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass, field
from datetime import date, timedelta
from itertools import pairwise
from typing import Final, Literal

import pandas as pd

from bunseki.brain.analyst.offline import accounting, bands, dates, durations, formats, years
from bunseki.brain.analyst.offline.codegen import describe
from bunseki.brain.analyst.offline.columns import SUFFIX_SCORE, ColumnMatcher, Mention, ValueMention
from bunseki.brain.analyst.offline.durations import Duration, read_duration, read_span
from bunseki.brain.analyst.offline.filters import is_number, number_filters, value_filters
from bunseki.brain.analyst.offline.intent import (
    ASKS_PERCENT,
    REVENUE_NAMES,
    answer_format,
    as_two_periods,
    asks_change,
    expression,
    flag_filters,
    flag_words,
    ratio,
    revenue,
    unit_price,
    yes_no,
)
from bunseki.brain.analyst.offline.named import measure_question, numeric_candidates, unusable_measure
from bunseki.brain.analyst.offline.plan import (
    AgeBands,
    AnswerForm,
    Clarification,
    Derived,
    Filter,
    Period,
    Plan,
    Ratio,
    Span,
    Task,
    TimeUnit,
)
from bunseki.brain.analyst.offline.quantiles import Quantile, read_quantile
from bunseki.brain.analyst.offline.relations import column_comparisons, equalities
from bunseki.brain.analyst.offline.text import kanji_number
from bunseki.brain.analyst.offline.vocab import (
    ADDITIVE,
    ASCENDING,
    CUMULATIVE,
    EACH_BEFORE,
    GROUP_AFTER,
    GROUP_BEFORE,
    NON_ADDITIVE,
    ROLLING,
    STATS,
    TASK_WORDS,
    TIME_UNITS,
    TOP_N,
    WINDOW_UNITS,
    Stat,
)
from bunseki.brain.lexicon import EXTREMES, concepts_for, weekday_of
from bunseki.brain.text import normalize
from bunseki.data.summary import DataFrameInfo
from bunseki.domain import Language

ID_LIKE = re.compile(r"(?:^|[_\s])(?:id|no|code|番号|コード|ID)(?:$|[_\s])|^id|id$|番号$|コード$", re.IGNORECASE)
RELATIVE_GROWTH = r"前年度比|前年比|前月比|前週比|yoy|mom|year over year|month over month"
OUTLIER_THRESHOLD = (
    r"(?:threshold|しきい値|閾値|>|超|を超える)?\s*(\d+(?:\.\d+)?)\s*(?:σ|sigma|standard deviations|sd\b|倍)|"
    r"(?:\|\s*z\s*\||z\s*-?\s*(?:スコア|score))[^\d]{0,24}?(\d+(?:\.\d+)?)"
)
Z_THRESHOLD = re.compile(r"(?:\|\s*z\s*\||z\s*-?\s*(?:スコア|score))[^\d]{0,24}?\d+(?:\.\d+)?", re.IGNORECASE)
COMPARE = r"比べ|比較|違い|違う|違っ|差|対比|\bcompare|\bversus\b|\bvs\.?\b|\bdifference|\bdiffer"
# Words around "あたり" / "per" are bounded: an unbounded lazy run before the keyword is retried
# from every position of a long question, which is quadratic (a pasted text kept a core busy).
PHRASE = 40
WINDOWS = {"D": 7, "W": 4, "M": 3, "Q": 4, "Y": 3}  # a moving average's window when none is named
CROSS_MAX = 50  # a cross table's second column: few enough values to read as columns
JOIN_GAP = 8  # 別・, " and the ": the characters between two columns joined into one breakdown
_PER = re.compile(rf"(?P<a>\S{{1,{PHRASE}}}?)\s*(?:あたり|当たり|当り)(?:の)?\s*(?P<b>\S{{1,{PHRASE}}})")
_PER_EN = re.compile(
    rf"(?<!\w)(?P<b>[\w .]{{1,{PHRASE}}}?)\s+per\s+(?P<a>[\w .]{{1,{PHRASE}}})"
    rf"|ratio of\s+(?P<c>[\w .]{{1,{PHRASE}}}?)\s+to\s+(?P<d>[\w .]{{1,{PHRASE}}})",
    re.IGNORECASE,
)


@dataclass
class Reading:
    """Everything found in the question before a task is chosen."""

    text: str
    lowered: str
    language: Language
    mentions: list[Mention]
    filters: list[Filter]
    periods: list[Period]
    date_column: str | None
    group_by: str | None
    time_unit: TimeUnit | None
    stats: list[tuple[int, Stat]]
    words: set[str]
    top_n: int | None
    ascending: bool
    derived: Derived | None
    entity_question: bool = False  # "which store…": the answer is a group, not a value
    ratio: Ratio | None = None  # a share or a change asked as a percentage
    assumptions: list[str] = field(default_factory=list)
    value_spans: list[tuple[int, int]] = field(default_factory=list)  # category values named (関東, East)
    values: list[ValueMention] = field(default_factory=list)  # the same, with their columns
    quantile: Quantile | None = None  # 90パーセンタイル, 上位10%の境目: the statistic's parameter
    period_spans: list[tuple[int, int]] = field(default_factory=list)  # where each period is named
    top_spans: list[tuple[int, int]] = field(default_factory=list)  # where the N of a top-N list is named
    form: AnswerForm = "value"  # the form of the answer asked for (a name, a difference, yes/no…)
    duration: Duration | None = None  # a duration asked for: its derived column
    span: Span | None = None  # the time between two moments of the rows (first and last, low and high)
    span_spans: list[tuple[int, int]] = field(default_factory=list)
    cross: str | None = None  # a second grouping column: a cross table (店舗別・カテゴリ別)

    def numeric(self, info: DataFrameInfo) -> list[str]:
        """Numeric columns named, in order, without repeats; not a 1/0 flag named only by the end of its
        name (V型エンジン is no measure of 直列エンジン: the accounting asks what it means instead)."""
        return list(
            dict.fromkeys(
                m.column
                for m in self.mentions
                if is_number(info, m.column)
                and not (m.score <= SUFFIX_SCORE and (c := info.column(m.column)) and yes_no(c.values or []))
            )
        )

    def categorical(self, info: DataFrameInfo) -> list[str]:
        kinds = ("category", "text", "boolean")
        return list(dict.fromkeys(m.column for m in self.mentions if (c := info.column(m.column)) and c.kind in kinds))


def read(question: str, info: DataFrameInfo, language: Language) -> Reading:
    """Find columns, values, conditions, dates, grouping and statistics in ``question``."""
    text = normalize(question)
    lowered = text.lower()
    matcher = ColumnMatcher(info)
    mentions = matcher.columns(text)
    # 東京倉庫 is a value of 倉庫, not the column 倉庫: a value wins over a column name inside it.
    # 初診 is a value of 初診再診 as much as a prefix of its name: the value, so 初診と再診 compares both.
    named = [(v.start, v.end, v.column) for v in matcher.values(text)]
    mentions = [
        m
        for m in mentions
        if not any(
            s <= m.start and m.end <= e and (e - s > m.end - m.start or (column == m.column and m.score < 1))
            for s, e, column in named
        )
    ]
    derived = _derived(text, matcher, mentions, language)
    duration = read_duration(text, lowered, info, mentions, language) if derived is None else None
    if duration is not None:  # 在任日数, 2019年1月1日時点で登録から何日: a duration column is the measure
        derived = duration.derived
    as_of = duration.spans if duration else []  # the day a duration runs to is no date window
    date_column = _date_column(info, mentions)
    periods, period_spans = _periods(_blank_spans(text, as_of), info, date_column, language)
    two = asks_change(text) or accounting.asked_form(lowered) in ("difference", "times")
    if len(periods) == 1 and two:  # 2023年から2024年で何％伸びた, 何週伸びた: two periods, not one range
        periods, period_spans = _periods(as_two_periods(text), info, date_column, language)
    quantile = read_quantile(lowered)  # 上位10%の境目 is a quantile, not a top-10 list nor a 10% condition
    quantile_spans = [quantile.span()] if quantile else []
    top_n, top_spans, ascending = read_top(_blank_spans(lowered, quantile_spans))
    values = matcher.values(text, exclude=mentions)
    filters = value_filters(text, values)
    defined = _defined_name(text, mentions, derived)  # "Daily range = a - b": "daily" names the measure
    group_by, time_unit = _grouping(text, _blank(lowered, defined), mentions, info)
    if derived and derived.expression and group_by in (derived.left, derived.right):
        group_by = None  # "revenue per guest": guests divide the measure, they do not group the rows
    if group_by and _agent_by(lowered, mentions, info, group_by):
        group_by = None  # "orders placed by members": who did it, a condition, not a breakdown
    filters += flag_filters(text, mentions, info, filters, group_by)
    meant, flagged = flag_words(text, info, filters)  # 亡くなった乗客: the no side of a survived column
    filters += meant
    mentions = sorted([*mentions, *flagged], key=lambda m: m.start)
    numeric_default = derived.name if derived else None
    filters += number_filters(
        text,
        mentions,
        info,
        language=language,
        taken=period_spans + top_spans + quantile_spans + as_of + [m.span() for m in Z_THRESHOLD.finditer(text)],
        default_column=numeric_default,
    )
    filters += column_comparisons(text, mentions, info)
    filters += equalities(text, mentions, info, filters)
    inside = [(m.start, m.end) for m in mentions]  # 最高 in 最高気温 names a column, not a maximum
    inside += [m.span() for m in ROLLING.finditer(lowered)]  # 移動平均 smooths the totals: no mean of rows
    inside += quantile_spans  # 上位10%に入るには最低: the boundary's words, not a minimum
    stats = _statistics(lowered, inside, quantile)
    for mention, stat in _extremes(lowered, mentions, info):  # the youngest: the smallest age
        mentions = sorted([*mentions, mention], key=lambda m: m.start)
        stats = sorted([*stats, (mention.start, stat)])
    if derived and derived.expression:  # "合計点（a+b+c）の平均": the statistic is the one after the formula
        formula_end = max((m.end for m in mentions if m.column in (derived.left, derived.right)), default=0)
        stats = [item for item in stats if item[0] >= formula_end] or stats
    unquantiled = _blank_spans(lowered, quantile_spans)  # 上位10%の境目 asks no top list
    words = {name for name, pattern in TASK_WORDS.items() if re.search(pattern, unquantiled)}
    if top_n is not None or (ascending and re.search(r"ワースト|下位|\bbottom\b|\bworst\b", lowered)):
        words.add("top")
    reading = Reading(
        text,
        lowered,
        language,
        mentions,
        filters,
        periods,
        date_column,
        group_by,
        time_unit,
        stats,
        words,
        top_n,
        ascending,
        derived,
    )
    if any(dates.is_fiscal(period.label) for period in periods):
        reading.assumptions.append(
            "年度は4月〜翌年3月の会計年度として集計しました。"
            if language == "ja"
            else "A fiscal year (年度) is taken as April to March."
        )
    if derived is not None and derived == revenue(text, matcher):
        reading.assumptions.append(
            f"売上の列がないため、売上 = {derived.left} × {derived.right} として計算しました。"
            if language == "ja"
            else f"The table has no sales column: sales = {derived.left} × {derived.right}."
        )
    reading.entity_question = "which" in words and bool(reading.categorical(info))
    if time_unit == "daytype" and date_column is None:  # no dates, but a column of day names (Sat, Sun)
        reading.date_column = _day_names(info)
    if group_by is None and not time_unit and (crossed := _crossed(lowered, mentions, info)):
        group_by = reading.group_by = crossed  # 店舗×カテゴリ: a cross table named by its two columns alone
    if group_by and not time_unit and (cross := _cross_group(text, lowered, mentions, info, group_by, filters)):
        reading.group_by, reading.cross = sorted((group_by, cross), key=lambda c: _first_at(mentions, c))
    reading.value_spans = [(value.start, value.end) for value in values]
    reading.values = values
    reading.quantile = quantile
    reading.period_spans = period_spans
    reading.top_spans = top_spans
    reading.duration = duration
    reading.form = accounting.asked_form(lowered)
    _read_span(reading, info)  # 最安値から最高値まで何か月: two moments of the rows
    if reading.group_by is None and (ranked := _ranked_entity(text, mentions, info)):
        reading.group_by, reading.entity_question = ranked, True
    if reading.group_by is None and "which" in words and (few := _which_number(lowered, mentions, info)):
        reading.group_by, reading.entity_question = few, True  # "which party size…": a whole number with few values
    numeric_mentions = [m for m in mentions if is_number(info, m.column) and m.column != date_column]
    reading.ratio = ratio(text, filters, periods, date_column, numeric_mentions, language)
    return reading


def _read_span(r: Reading, info: DataFrameInfo) -> None:
    """The time between two moments the question names, dated by the dates it names or the only ones."""
    if r.form != "duration" or r.duration is not None:
        return
    dating = durations.moments(info)
    dating = [m.column for m in r.mentions if m.column in dating][:1] or dating
    if len(dating) == 1 and (span := read_span(r.lowered, info, r.mentions)):
        r.span, r.span_spans = span
        r.date_column = dating[0]


def plan_question(question: str, info: DataFrameInfo, language: Language) -> Plan | Clarification:
    """The analysis a question asks for, or what to ask back when it cannot be told."""
    requested = answer_format(normalize(question))
    if requested:  # the answers are named (@name[value]): each is a slot of the intent, filled by formats
        return formats.fill(requested, question, info, language)
    info, year = years.as_dates(info)  # year = 2010…2020 without a date column: the time axis
    info, banded = bands.with_bands(info, question)  # 年代別: the decades of an age column, as a column
    reading = read(question, info, language)
    task = _task(reading, info)
    if isinstance(task, Clarification):
        return task
    planned = _build(task, reading, info)
    if isinstance(planned, Plan):
        planned = _in_form(planned, reading.form, compared=accounting.compares(reading.lowered))
        if planned.compared:
            planned = _subject_first(planned, reading)
        if unused := _unaccounted(planned, reading, info):
            return accounting.ask_back(unused, reading.language, describe(planned))
    if year and isinstance(planned, Plan):
        planned.year_column = year
    if banded and isinstance(planned, Plan):
        planned.age_bands = AgeBands(column=banded[0], age=banded[1])
    return planned


def placed(r: Reading) -> list[tuple[int, int]]:
    """The spans of the question the reading placed: columns, values, dates, quantiles, durations, lists."""
    spans = [(m.start, m.end) for m in r.mentions] + [(v.start, v.end) for v in r.values]
    spans += r.period_spans + r.top_spans
    spans += [r.quantile.span()] if r.quantile else []
    spans += r.duration.spans if r.duration else []
    return spans + r.span_spans


def _in_form(plan: Plan, form: accounting.Form, *, compared: Literal["higher", "lower"] | None = None) -> Plan:
    """The plan set to answer in the asked form: yes or no is whether any row meets the conditions
    (a yes/no comparison, 「AはBより高いですか」, is no count of rows: it stays what it was)."""
    if compared and form == "yesno":
        return plan.model_copy(update={"form": form, "compared": compared})
    if form == "yesno" and plan.filters and plan.task in ("stat", "count", "group", "top", "describe"):
        return plan.model_copy(
            update={"form": form, "task": "count", "target": None, "group_by": None, "cross": None, "top_n": None}
        )
    return plan.model_copy(update={"form": form})


_THAN: Final = re.compile(r"より|と比べ|に比べ|\bthan\b", re.IGNORECASE)


def _subject_first(plan: Plan, r: Reading) -> Plan:
    """The two compared groups ordered subject first: in 「BよりAが高い」 and "higher than B" B is the base."""
    than = _THAN.search(r.lowered)
    named = next((f for f in plan.filters if f.column == plan.group_by and f.op == "in"), None)
    if named is None and len(plan.focus) == 2 and plan.group_by:
        named = Filter(column=plan.group_by, op="in", value=list(plan.focus))
    if than is None or named is None or len(named.value) != 2:
        return plan
    at = {v.value: v.start for v in r.values if v.column == plan.group_by}
    if not all(str(v) in at for v in named.value):
        return plan
    english = than.group().casefold() == "than"
    # the base: the group named right after "than", or right before より
    if english:
        after = [v for v in named.value if at[str(v)] > than.start()]
        base = min(after, key=lambda v: at[str(v)]) if after else None
    else:
        before = [v for v in named.value if at[str(v)] < than.start()]
        base = max(before, key=lambda v: at[str(v)]) if before else None
    if base is None:
        return plan
    subject = next(v for v in named.value if v != base)
    filters = [f.model_copy(update={"value": [subject, base]}) if f is named else f for f in plan.filters]
    focus = [subject, base] if sorted(map(str, plan.focus)) == sorted(map(str, named.value)) else plan.focus
    return plan.model_copy(update={"filters": filters, "focus": focus})


def _unaccounted(plan: Plan, r: Reading, info: DataFrameInfo) -> list[accounting.Unaccounted]:
    """The elements of the question the plan leaves out, and the form it does not produce."""
    values = [(v.start, v.end, v.column) for v in r.values]
    consumed = ([r.quantile.span()] if r.quantile else []) + (r.duration.spans if r.duration else []) + r.span_spans
    consumed += [m.span() for _, pattern in STATS for m in re.finditer(pattern, r.lowered)]  # 何種類
    missing = accounting.unaccounted(plan, r.text, r.mentions, values, info, consumed=consumed)
    source = (info.source or "").casefold()  # ペンギン調査.tsv: a ペンギン is one of its rows
    missing += [
        accounting.Unaccounted("term", word)
        for word in accounting.residue(r.text, placed(r), r.language)
        if word.casefold() not in source
    ]
    if not _produces(plan, plan.form, info):
        missing.insert(0, accounting.Unaccounted("form", plan.form))
    blanked = _blank_spans(r.lowered, placed(r))
    if accounting.asks_extreme(blanked) and not _ranks(plan):
        missing.insert(0, accounting.Unaccounted("form", "extreme"))  # 一番重い車: no average of weights
    if accounting.asks_change(blanked) and not _changes(plan):
        missing.insert(0, accounting.Unaccounted("form", "change"))  # 最も伸びた国: no average over the years
    return missing


def _ranks(plan: Plan) -> bool:
    """The plan finds a largest or smallest: an extreme statistic, a ranked list, a ranked share."""
    return (
        plan.stat in ("max", "min", "quantile")
        or plan.top_n is not None
        or plan.ascending
        or plan.span is not None
        or plan.task in ("top", "group", "share", "growth", "trend", "outliers", "correlation_matrix", "distribution")
        or (plan.task == "describe" and plan.target is not None and plan.target != plan.date_column)
        or any(s.measure for s in plan.slots)
    )


def _changes(plan: Plan) -> bool:
    """The plan measures a change: between periods, over time, between groups, or row by row."""
    subtracted = plan.derived is not None and (plan.derived.op == "-" or "-" in (plan.derived.expression or ""))
    return (
        plan.task in ("growth", "trend", "ratio", "correlation", "correlation_matrix", "answers")
        or plan.form in ("difference", "times")
        or subtracted
        or bool(plan.slots)
    )


_SAYS_WHETHER: Final = frozenset(
    {"correlation", "correlation_matrix", "trend", "growth", "missing", "duplicates", "outliers"}
)


def _two_groups(plan: Plan, info: DataFrameInfo) -> bool:
    """The plan compares exactly two groups: two values named, or a grouping with two values."""
    if plan.task != "group" or not plan.group_by or plan.cross:
        return False
    named = [f for f in plan.filters if f.column == plan.group_by and f.op == "in"]
    if named:
        return len(named[0].value) == 2
    column = info.column(plan.group_by)
    return column is not None and column.unique == 2 and not plan.top_n


def _two_rates(plan: Plan) -> bool:
    """The plan takes a rate within each of exactly two named groups (女性と男性の生存率)."""
    return (
        plan.task == "share"
        and bool(plan.within)
        and len(plan.focus) == 2
        and (plan.form != "yesno" or plan.compared is not None)
    )


def _produces(plan: Plan, form: accounting.Form, info: DataFrameInfo) -> bool:
    """Whether the plan's result has the form asked for."""
    if form in ("difference", "times", "yesno") and _two_rates(plan):
        return True  # 女性と男性の生存率の差: two named groups' rates
    if form == "percentile":
        return plan.stat in ("quantile", "median")
    if form == "yesno" and plan.compared:  # 「AはBより高いですか」: two groups compared, the first named first
        return _two_groups(plan, info) and any(f.column == plan.group_by and f.op == "in" for f in plan.filters)
    if form == "yesno":  # whether any row meets the conditions; a correlation, a trend, missing values say it
        return (plan.task == "count" and bool(plan.filters)) or plan.task in _SAYS_WHETHER
    if form == "times":  # of two groups or periods, or of two columns row by row (売上 ÷ 客数)
        divided = plan.derived is not None and (plan.derived.op == "/" or "/" in (plan.derived.expression or ""))
        return plan.task in ("ratio", "growth") or _two_groups(plan, info) or divided
    if form == "difference":  # of two groups, two periods, or of two columns row by row (最高気温−最低気温)
        subtracted = plan.derived is not None and (plan.derived.op == "-" or "-" in (plan.derived.expression or ""))
        return plan.task in ("growth", "ratio") or _two_groups(plan, info) or subtracted
    if form == "duration" and plan.task == "span":
        return True
    if form == "duration":  # a measure computed from dates (在任日数, days since 2020-01-01)
        return any("to_datetime" in (d.expression or "") for d in [plan.derived, *plan.derived_columns] if d)
    if form == "date":
        kinds = {c.kind for c in info.column_info if c.name in (plan.target, plan.group_by)}
        return bool(plan.time_unit or "datetime" in kinds or (plan.task == "top" and plan.date_column))
    if form == "name":
        return bool(
            plan.group_by
            or plan.task in ("top", "distinct", "share", "growth", "ratio", "correlation_matrix")
            or (plan.task == "trend" and plan.time_unit)
        )
    return True


def _task(r: Reading, info: DataFrameInfo) -> Task | Clarification:
    """The kind of analysis: a specific one when its words appear, else a summary of a measure."""
    return _specific_task(r, info) or _summary_task(r, info)


def _specific_task(r: Reading, info: DataFrameInfo) -> Task | None:
    """Analyses named by their own words: correlation, missing values, outliers, trends…"""
    words = r.words
    if r.span is not None:
        return "span"  # Appleの最安値から最高値まで何か月: the time between two moments
    if "correlation" in words:
        return "correlation" if len(r.numeric(info)) + (1 if r.derived else 0) >= 2 else "correlation_matrix"
    if "duplicates" in words and not r.group_by:
        return "duplicates"
    if "missing" in words or "outliers" in words:
        return "missing" if "missing" in words else "outliers"
    if r.ratio is not None and _flag_rate(r, info) is not None and r.form in ("difference", "times"):
        return "share"  # 女性と男性で生存率は何ポイント違う: two groups' rates, not a change between them
    if r.ratio is not None and not r.group_by and not _share_across(r, info):
        return "ratio"
    if "distribution" in words and not r.group_by:
        return "distribution"
    if "share" in words and (r.group_by or r.categorical(info) or _value_filter(r)):
        return "share"
    if _flag_rate(r, info) is not None:
        return "share"  # 部署ごとの退職率, the churn rate by plan: a yes/no column's rate in each group
    trend_only = "trend" in words and not ASKS_PERCENT.search(r.lowered)  # "trending up or down month over month"
    if "growth" in words and (len(r.periods) >= 2 or re.search(RELATIVE_GROWTH, r.lowered)) and not trend_only:
        return "growth"
    if r.form in ("difference", "times") and len(r.periods) >= 2 and not r.group_by:
        return "growth"  # 2015年は2012年と比べて何度高い, 2014年は2013年の何倍: two periods compared
    if "top" in words:
        return "top"
    if (r.time_unit and r.date_column) or ("trend" in words and r.date_column):
        return "trend"
    return None


# "how many", and 何 with a counter word: 何件, 何人, 何台, 何社, 何か国, 何羽…
_HOW_MANY = re.compile(
    r"how many|いくつ|何\s*(?:件|人|日|台|名|社|個|本|匹|頭|羽|回|か国|カ国|ヶ国|店|店舗|軒|冊|枚|点|組|世帯)(?!通り)"
)
SHAPE = re.compile(
    r"列数|列の数|列はいくつ|何列|何行|行数|"
    r"\bhow many (?:rows|records|col(?:u|o|ou)?m?n?s|cols)\b|\bnumber of (?:rows|col(?:u|o|ou)?m?n?s)\b|\bshape\b"
)


def _summary_task(r: Reading, info: DataFrameInfo) -> Task | Clarification:
    """A measure summarised: by group, counted, distinct values, one statistic, or an overview."""
    stat = _main_stat(r)
    if SHAPE.search(r.lowered) and not r.filters and not r.group_by:
        return "count"
    asks_count = _HOW_MANY.search(r.lowered) and r.duration is None  # 何日経った: a duration
    conditioned = {c for f in r.filters for c in f.columns()}
    counted = None if _how_many_measure(r, info) else _after_how_many(r, info)  # "how many bills": the rows
    measured_apart = [
        c for c in r.numeric(info) if c not in conditioned and c != counted
    ]  # 年収が600万円以上の社員は何人
    if asks_count and not measured_apart and not r.group_by and not _distinct_target(r, info):
        return "count"  # how many orders / rows / 件: rows, whatever the total word
    measured = bool(r.numeric(info) or r.derived)
    compared = re.search(COMPARE, r.lowered) and any(f.op == "in" for f in r.filters)
    if r.group_by or compared:
        return "group"  # 東京と大阪を比べて: one bar per value
    if r.entity_question and (measured or stat in ("max", "min", "count") or _wants_one(r)):
        return "group"
    if r.form in ("name", "date") and measured and stat in ("max", "min"):
        return "group"  # 最高気温が一番高かった日はいつ, who is the oldest: the row, named by a column
    named = [c for c in r.categorical(info) if c not in conditioned]
    if measured and stat in ("max", "min") and named and not _value_filter(r):
        return "group"  # 平均寿命が最も短かった国: the country, not the shortest life expectancy
    if _distinct_target(r, info):
        return "distinct"
    if stat == "count" and not _how_many_measure(r, info):
        return "count"
    if stat is not None or (measured and not r.words & {"describe", "chart"}):
        return "stat"  # 7月以降の飲料の売上: a measure under conditions, total by default
    if "describe" in r.words or (r.mentions and "chart" not in r.words):
        return "describe"
    if "chart" in r.words and r.categorical(info):
        return "group"
    return _capabilities(r, info)


def _build(task: Task, r: Reading, info: DataFrameInfo) -> Plan | Clarification:
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
        plan.filters = [*plan.filters, *_period_filters(r)]
    numeric = [r.derived.name, *r.numeric(info)] if r.derived else r.numeric(info)
    if task in _WITHOUT_MEASURE:
        return _WITHOUT_MEASURE[task](plan, r, info, numeric)
    target = _measure(r, info, numeric, task)
    if isinstance(target, Clarification):
        return target
    plan.target = target
    plan.assumptions = list(r.assumptions)  # _measure may have assumed the measure: the answer says so
    if task in ("outliers", "distribution"):
        return _shape(plan, r, info)
    plan.stat = _default_stat(_main_stat(r), target, plan, info) if target is not None else "count"
    if r.duration and r.duration.spans and target == r.duration.derived.name and (since := _SINCE.search(r.lowered)):
        plan.stat = "min" if since.group("last") else "max"  # days since the last snow: the fewest
    if plan.stat == "quantile" and r.quantile is not None:
        plan.quantile = r.quantile.q
    if task == "stat":
        return _as_chart(plan, info) if "chart" in r.words else plan
    if task in ("growth", "trend"):
        return _over_time(plan, r, info)
    return _by_group(plan, r, info)


def _ratio_plan(plan: Plan, r: Reading, info: DataFrameInfo) -> Plan:
    """A share or a change: the measure (rows when none is named apart from the conditions) and its subsets."""
    assert r.ratio is not None
    ratio = r.ratio
    split = ratio.part + ratio.base
    split_columns = {c for f in split for c in f.columns()}
    plan.ratio = ratio
    plan.filters = [f for f in plan.filters if f.column not in split_columns]
    if len(r.periods) == 1 and ratio.kind == "share":
        plan.filters += _period_filters(r)
    numeric = [r.derived.name, *r.numeric(info)] if r.derived else r.numeric(info)
    measures = [c for c in numeric if c not in split_columns and c != r.date_column]
    plan.target = ratio.part_column or (measures[0] if measures else None)
    stat = _main_stat(r)
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
        plan.target = _distinct_target(r, info)
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


def _over_time(plan: Plan, r: Reading, info: DataFrameInfo) -> Plan | Clarification:
    """Growth between two periods, or a trend by day, week, month, quarter or year."""
    if plan.task == "growth":
        plan.periods = _base_first(r) if len(r.periods) >= 2 else _previous_periods(r, info)
        plan.assumptions += [text for text in r.assumptions if text not in plan.assumptions]
        if len(plan.periods) < 2:
            return _ask_periods(r)
        plan.chart = "bar"
        return plan
    window = ROLLING.search(r.lowered)
    named: TimeUnit | None = WINDOW_UNITS.get(window.group("unit") or window.group("unit_en") or "") if window else None
    unit = plan.time_unit = r.time_unit or named or _auto_unit(info, r.date_column)
    if window and unit in WINDOWS:
        given = window.group("n") or window.group("n_en")
        plan.rolling = int(given) if given and 1 < int(given) <= 366 else WINDOWS[unit]
    elif CUMULATIVE.search(r.lowered) and unit in WINDOWS:
        plan.cumulative = True
    plan.ascending = _wants_smallest(r)  # 最も少なかった月: the lowest period leads the answer
    plan.group_by = r.group_by if r.group_by and r.group_by != r.date_column else None
    plan.chart = "line"
    return plan if plan.date_column is not None else _ask_date(r)


_BASE_AFTER = re.compile(r"^\s*(?:の\s*)?(?:より|に比べ|と比べ|と比較|に対し|対比|の何倍|比)")
_BASE_BEFORE = re.compile(r"(?:\bthan|\bcompared (?:to|with)|\bversus|\bvs\.?|\brelative to)\s*(?:in\s+|the\s+)?$")


def _statistics(lowered: str, inside: list[tuple[int, int]], quantile: Quantile | None) -> list[tuple[int, Stat]]:
    """The statistics named, in order, but for words inside a column's name (最高 in 最高気温)."""
    stats: list[tuple[int, Stat]] = sorted(
        (match.start(), stat)
        for stat, pattern in STATS
        for match in re.finditer(pattern, lowered)
        if not any(start <= match.start() and match.end() <= end for start, end in inside)
    )
    if quantile is not None:
        stats = sorted([*stats, (quantile.start, "quantile")])
    return stats


_SINCE = re.compile(r"(?P<last>最後|最新|直近|\blast\b|\blatest\b|most recent)|最初|初めて|\bfirst\b|\bearliest\b")


def _extremes(lowered: str, mentions: list[Mention], info: DataFrameInfo) -> list[tuple[Mention, Stat]]:
    """Adjectives naming the extreme of a measure the question does not name: youngest, 最も重い."""
    found: list[tuple[Mention, Stat]] = []
    named = {m.column for m in mentions}
    for words, concept_word, largest in EXTREMES:
        match = next((m for word in words if (m := re.search(rf"(?<![a-z]){re.escape(word)}(?![a-z])", lowered))), None)
        if match is None:
            continue
        columns = [
            c.name
            for c in info.column_info
            if c.kind == "number" and any(concept_word in concept.words for concept, _ in concepts_for(c.name))
        ]
        if len(columns) == 1 and columns[0] not in named:
            mention = Mention(columns[0], match.start(), match.end(), 0.8, match.group())
            found.append((mention, "max" if largest else "min"))
    return found


def _base_first(r: Reading) -> list[Period]:
    """Two periods, the one compared against first: 2015年は2012年と比べて → 2012, then 2015."""
    periods = r.periods[:2]
    spans = r.period_spans[:2]
    if len(spans) == 2:
        based = [
            bool(_BASE_AFTER.match(r.text[end : end + 8]) or _BASE_BEFORE.search(r.lowered[max(0, start - 24) : start]))
            for start, end in spans
        ]
        if based == [False, True]:
            return [periods[1], periods[0]]
    return periods


def _by_group(plan: Plan, r: Reading, info: DataFrameInfo) -> Plan | Clarification:
    """Group-by aggregations, top-N lists and shares."""
    group = r.group_by or _entity(r, info, plan.target)
    if (
        group is None
        and plan.task == "top"
        and plan.target
        and (group := _row_label(info) or _row_label(info, repeated=True))
    ):
        plan.rows = True  # 給与が高い上位5人: the rows themselves, named by their name or id
    if group is None and r.form == "name" and plan.target:
        group = _row_label(info, repeated=True)  # who was the youngest: a person, named by the name column
    if group is None and r.form == "date" and plan.target and r.date_column:
        group = r.date_column  # on which day was it coldest: the day of the coldest row
    if group is None:
        return _ask_group(r, info, plan.task)
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
        mixed = [c for c in _breakdowns(r, info) if c != group and c not in conditioned]
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
    elif plan.task == "group" and (_wants_one(r) or r.entity_question):
        plan.top_n = 1
        plan.ascending = _wants_smallest(r)
    return plan


# --- pieces of the reading ---------------------------------------------------------------


def _main_stat(r: Reading) -> Stat | None:
    """The statistic asked for; max/min are orderings when a group or a 'which' is involved."""
    found = [stat for _, stat in r.stats]
    if "quantile" in found:
        return "quantile"
    ordering = {"max", "min"}
    for stat in found:
        if stat not in ordering and stat != "count" and stat != "nunique":
            return stat
    if any(stat in ordering for stat in found):
        if r.group_by or r.entity_question or "top" in r.words or r.time_unit:
            return None
        return next(stat for stat in found if stat in ordering)
    if "count" in found:
        return "count"
    if "nunique" in found:
        return "nunique"
    return None


def _default_stat(stat: Stat | None, target: str | None, plan: Plan, info: DataFrameInfo) -> Stat:
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
    if derived and derived.op == "*" and not derived.expression and name in REVENUE_NAMES:
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


def _measure(r: Reading, info: DataFrameInfo, numeric: list[str], task: Task) -> str | Clarification | None:
    """The numeric column the question is about; asks when it cannot be told."""
    grouping = {r.group_by, r.date_column}
    candidates = [column for column in numeric if column not in grouping] or numeric
    skip = {column for column in grouping if column} | {c for f in r.filters for c in f.columns()}
    # 降水量が10mm以上の日の最高気温の平均: the measure is the column the condition is not on
    free = [column for column in candidates if column not in skip]
    chosen = (free or candidates)[0] if candidates else None
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
        return _no_numeric(r, info)
    listed = "、".join(measures[:12]) if r.language == "ja" else ", ".join(measures[:12])
    if r.language == "ja":
        question = f"どの数値の列について計算しますか？ 候補: {listed}"
    else:
        question = f"Which numeric column should I use? Candidates: {listed}"
    return Clarification(question=question, reason="no measure named")


def _assume_measure(r: Reading, column: str) -> str:
    if r.language == "ja":
        return f"対象の数値列が明示されていないため、{column} を使いました。"
    return f"No numeric column was named, so {column} is used."


def _count_words(r: Reading) -> bool:
    """A count was asked (件数, 取引数, how many) or words that rank by how often (人気, most common)."""
    return any(stat == "count" for _, stat in r.stats) or bool(
        re.search(
            r"人数|数が多|多い順|頻度|よく使|多く使|人気|frequen|often|most common|least common|popular",
            r.lowered,
        )
    )


# With no measure named, "the most", 一番多い, the busiest are about how many rows, not a sum of some column.
_QUANTITY = re.compile(
    r"多い|多かった|多く|少ない|少なかった|少なく|\bmost\b|\bfewest\b|\bleast\b|\bbusiest\b|\bquietest\b"
)


def _how_many_measure(r: Reading, info: DataFrameInfo) -> bool:
    """'how many customers' over a whole-number 客数 column means its sum, not a row count."""
    match = re.search(r"how many|何人|何個|何点", r.lowered)
    if not match:
        return False
    after = [m for m in r.mentions if m.start >= match.end() and m.start - match.end() <= 3]
    column = info.column(after[0].column) if after else None
    whole = column is not None and column.kind == "number" and column.dtype.lower().startswith(("int", "uint"))
    return whole and bool(ADDITIVE.search(after[0].column))


def _after_how_many(r: Reading, info: DataFrameInfo) -> str | None:
    """An amount named right after 'how many' (how many bills → total_bill): the rows are counted.

    A whole-number column there (how many sessions) counts things itself and stays the measure.
    """
    match = re.search(r"how many", r.lowered)
    after = [m for m in r.mentions if match and 0 <= m.start - match.end() <= 3]
    column = info.column(after[0].column) if after else None
    if column is None or column.dtype.lower().startswith(("int", "uint")):
        return None
    return column.name


def _distinct_target(r: Reading, info: DataFrameInfo) -> str | None:
    """'How many stores?', '地域は何種類?': the category column whose distinct values are counted."""
    if any(stat == "nunique" for _, stat in r.stats):
        categorical = r.categorical(info)
        if categorical or r.mentions:
            return (categorical or [r.mentions[0].column])[0]
    for mention in r.mentions:  # 都道府県の数, 部署はいくつ: the number of a category's values
        column = info.column(mention.column)
        rest = r.text[mention.end :]
        if column and column.kind in ("category", "text") and re.match(r"\s*(?:の数(?!量)|は\s*(?:いくつ|何個))", rest):
            return mention.column
    counter = re.search(r"(?:how many|何)\s*(?P<word>[^\s、。?？]{1,12})", r.lowered)
    if counter:
        after = [m for m in r.mentions if counter.start() <= m.start <= counter.end() + 2]
        for mention in after:
            column = info.column(mention.column)
            if column and column.kind in ("category", "text") and not _value_filter(r):
                return mention.column
    return None


_NAME = re.compile(r"name|名前|氏名|名称|品名|商品名|タイトル|title", re.IGNORECASE)


def _row_label(info: DataFrameInfo, *, repeated: bool = False) -> str | None:
    """A column naming each row once (a name, else an id): top-N rows are listed by it.

    ``repeated``: a name column may name a row more than once (a winner of two awards); any column
    naming most rows (a car model, a title) does as well, when there is no column called a name.
    """
    rows = info.shape[0]
    unique = [c for c in info.column_info if rows > 0 and c.unique == rows and c.missing == 0]
    named = [c.name for c in unique if c.kind in ("text", "category") and _NAME.search(c.name)]
    ids = [c.name for c in unique if ID_LIKE.search(c.name)]
    if repeated:
        texts = [c for c in info.column_info if c.kind in ("text", "category") and rows and c.unique >= 0.5 * rows]
        named += sorted((c.name for c in texts if _NAME.search(c.name)), key=lambda n: -_unique(info, n))
        named += [c.name for c in texts if not ID_LIKE.search(c.name) and c.name not in named]
    return next(iter(named + ids), None)


def _unique(info: DataFrameInfo, name: str) -> int:
    column = info.column(name)
    return column.unique if column else 0


# The extreme is one row's: 最も短い人, 一番若い選手, "the person with the highest …".
_ONE_ROW: Final = re.compile(
    r"(?:い|な|た)(?:人|者|方|選手|乗客|社員|従業員|会員|個体)(?:は|が|の|って|を)|"
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
    unquoted = _blank_spans(r.lowered, [(m.start, m.end) for m in r.mentions])  # 平均寿命 names a column
    if not orderings or _AGGREGATE.search(unquoted) or any(s not in ("max", "min") for _, s in r.stats):
        return None
    return orderings[0]


def _share_across(r: Reading, info: DataFrameInfo) -> bool:
    """新宿店の支払方法の割合: a share across a column named besides the condition, not the condition's share."""
    if r.ratio is None or r.ratio.kind != "share" or "share" not in r.words:
        return False
    conditioned = {c for f in r.filters for c in f.columns()}
    return any(c not in conditioned for c in _breakdowns(r, info))


_RATE = re.compile(r"率|割合|比率|\brates?\b|percentage|proportion|share", re.I)


def _flag_rate(r: Reading, info: DataFrameInfo) -> Filter | None:
    """The yes/no condition whose rate the question asks for in each group (退職率, churn rate), if any."""
    flags = [f for f in r.filters if f.op == "==" and (c := info.column(f.column)) and yes_no(c.values or [])]
    if len(flags) != 1 or not _RATE.search(r.lowered):
        return None
    others = [f for f in r.filters if f is not flags[0]]
    named = [f for f in others if f.op == "in" and isinstance(f.value, list) and len(f.value) >= 2]
    grouped = r.group_by or r.entity_question or re.search(r"ごと|別|\bby\b|\bper\b|\beach\b", r.lowered)
    if not (grouped and not others) and not (
        len(named) == 1 and len(others) == 1 and r.group_by in (None, named[0].column)
    ):
        return None  # 部署ごとの退職率; 女性と男性の生存率: the rate in each named group
    if [c for c in r.numeric(info) if c != flags[0].column]:
        return None  # a measure named besides the flag: its statistic, not the rate
    if named and r.group_by is None:
        r.group_by = named[0].column
    return flags[0]


def _share_within(plan: Plan, r: Reading, info: DataFrameInfo) -> None:
    """カード払いの割合が一番高い店舗: which store has the highest share of card payments *among its own*
    payments. Ranking the stores' shares of all card payments would only rank their counts again.
    A yes/no column's rate (部署ごとの退職率) is always taken within each group."""
    flag = _flag_rate(r, info)
    if flag is not None and plan.group_by != flag.column:
        plan.within, plan.filters = [flag], [f for f in plan.filters if f.column == plan.group_by and f is not flag]
        if plan.target == flag.column:  # 生存率 over a 0/1 column: the rate of rows, not a weighted sum
            plan.target = None
            plan.assumptions = [a for a in plan.assumptions if flag.column not in a]
        plan.ascending = _wants_smallest(r)
        return
    if plan.focus or not (_wants_one(r) or r.entity_question):
        return
    conditions = [f for f in plan.filters if plan.group_by not in f.columns() and r.date_column not in f.columns()]
    if len(conditions) != 1:  # 女性のカード払いの割合: which one is the scope cannot be told
        return
    plan.within = conditions
    plan.filters = [f for f in plan.filters if f not in conditions]
    plan.ascending = _wants_smallest(r)


def _breakdowns(r: Reading, info: DataFrameInfo) -> list[str]:
    """Category columns named that can break rows down: not an identifier (生徒ID for 生徒), few values."""
    return [
        c
        for c in r.categorical(info)
        if not ID_LIKE.search(c) and (column := info.column(c)) is not None and 1 < column.unique <= CROSS_MAX
    ]


def _entity(r: Reading, info: DataFrameInfo, target: str | None) -> str | None:
    """The category column that groups rows when the question names one without 'by'."""
    compared = [f.column for f in r.filters if f.op == "in"]
    if compared:
        return compared[0]
    categorical = [c for c in r.categorical(info) if c != target]
    filtered = {f.column for f in r.filters if f.op in ("==", "in")}
    if "share" in r.words:
        named = [c for c in _breakdowns(r, info) if c not in filtered]  # the gender ratio in Engineering
        singled = [f.column for f in r.filters if f.op == "==" and isinstance(f.value, str)]
        if singled and not named:  # 関東の割合: 関東's share among the regions
            return singled[0]
    for column in categorical:
        if column not in filtered:
            return column
    return categorical[0] if categorical else None


def _grouping(
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


# Two columns joined into one breakdown: 店舗×カテゴリ, 店舗とカテゴリ別, by store and category.
_JOINED = re.compile(r"^\s*(?:別|ごと)?\s*(?:×|✕|\*|x|・|、|,|と|及び|および|and|&|/)\s*(?:the\s+)?$")


def _cross_group(
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


def _crossed(lowered: str, mentions: list[Mention], info: DataFrameInfo) -> str | None:
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


def _first_at(mentions: list[Mention], column: str) -> int:
    return min((m.start for m in mentions if m.column == column), default=0)


def _day_names(info: DataFrameInfo) -> str | None:
    """A column whose values are all days of the week: weekdays and the weekend can be told by it."""
    for column in info.column_info:
        if column.values and all(weekday_of(str(v)) is not None for v in column.values):
            return column.name
    return None


def _names_a_value(word: str, info: DataFrameInfo) -> bool:
    """平日 or weekend that is a value of a column of the table: a condition on it, not a day type."""
    return any(word in (v.casefold() for v in c.values or ()) for c in info.column_info)


def _derived(text: str, matcher: ColumnMatcher, mentions: list[Mention], language: Language) -> Derived | None:
    """A ratio the question computes per row: 客単価, 単価, A あたり B, A per B, A / B."""
    formula = expression(text, mentions, matcher.info)
    if formula is not None:
        return formula
    per_unit = unit_price(text, matcher) if "単価" in text else None
    if per_unit is not None:
        return per_unit
    sales = revenue(text, matcher)  # 売上 of a ledger with 単価 and 数量 but no sales column
    if sales is not None:
        return sales
    inside = [(m.start, m.end) for m in mentions]  # gdp_per_capita names a column, not a ratio

    def within(match: re.Match[str], word: str) -> bool:
        at = match.string.find(word, match.start())
        return any(start <= at < end for start, end in inside)

    per = _PER.search(text) if re.search("あたり|当たり|当り", text) else None  # cheap test first
    if per and any(within(per, w) for w in ("あたり", "当たり", "当り")):
        per = None
    if per:
        left, right = matcher.resolve(per.group("b")), matcher.resolve(per.group("a"))
        if left and right and left != right and all(is_number(matcher.info, c) for c in (left, right)):
            return Derived(name=f"{left}/{right}", left=left, op="/", right=right)
    lowered = text.lower()
    english = _PER_EN.search(text) if "per" in lowered or "ratio of" in lowered else None
    if english and english.group("b") and within(english, " per "):
        english = None
    if english:
        numerator_text = english.group("b") or english.group("c")
        denominator_text = english.group("a") or english.group("d")
        left, right = matcher.resolve(numerator_text or ""), matcher.resolve(denominator_text or "")
        if left and right and left != right and all(is_number(matcher.info, c) for c in (left, right)):
            return Derived(name=f"{left}/{right}", left=left, op="/", right=right)
    return None


def _agent_by(lowered: str, mentions: list[Mention], info: DataFrameInfo, group_by: str) -> bool:
    """'How many orders were placed by members?': a yes/no column after a passive 'by' is a condition."""
    column = info.column(group_by)
    if column is None or yes_no(column.values or []) is None or not re.search(r"\bhow many\b", lowered):
        return False
    for mention in mentions:
        if mention.column == group_by:
            before = lowered[max(0, mention.start - 30) : mention.start]
            if re.search(r"\b(?:\w+ed|made|paid|bought|written|done)\s+by\s+(?:the\s+)?$", before):
                return True
    return False


def _defined_name(text: str, mentions: list[Mention], derived: Derived | None) -> tuple[int, int] | None:
    """Where the question names the measure it defines: 'Daily range' in 'Daily range = a - b'."""
    if derived is None or not derived.expression:
        return None
    for mention in mentions:
        if mention.column not in (derived.left, derived.right):
            continue
        before = text[max(0, mention.start - PHRASE) : mention.start]  # a window: long texts stay linear
        equals = re.search(r"(?:=|＝|:=|is defined as|とは|を)\s*\(?\s*$", before)
        named = equals or re.search(r"[(（]\s*$", before)  # "refund per day since purchase (a / b)"
        if named is not None:
            break
    else:
        return None
    end = mention.start - len(before) + named.start()
    clause = max(text.rfind(mark, max(0, end - PHRASE), end) for mark in (".", ",", ";", "、", "。", "?", "\n"))
    clause = clause if clause >= 0 else max(-1, end - PHRASE - 1)
    if equals is None and re.search(r"別|ごと|毎|\bby\b|\beach\b", text[clause + 1 : end]):
        return None  # 月別の客単価（金額÷客数）: the grouping is asked, not part of the name
    return clause + 1, end


def _blank_spans(text: str, spans: list[tuple[int, int]]) -> str:
    for span in spans:
        text = _blank(text, span)
    return text


def _blank(text: str, span: tuple[int, int] | None) -> str:
    if span is None:
        return text
    return text[: span[0]] + " " * (span[1] - span[0]) + text[span[1] :]


_ORDERING = re.compile(
    r"(?:一番|いちばん|最も|もっとも|最|多い|少ない|高い|低い|大きい|小さい|長い|短い|売れた|多かった|少なかった|"
    r"高かった|低かった|大きかった|小さかった)"
)


def _ranked_entity(text: str, mentions: list[Mention], info: DataFrameInfo) -> str | None:
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


def _which_number(lowered: str, mentions: list[Mention], info: DataFrameInfo) -> str | None:
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


def _date_column(info: DataFrameInfo, mentions: list[Mention]) -> str | None:
    for mention in mentions:
        column = info.column(mention.column)
        if column and column.kind == "datetime":
            return mention.column
    return next((c.name for c in info.column_info if c.kind == "datetime"), None)


def _periods(
    text: str, info: DataFrameInfo, date_column: str | None, language: Language
) -> tuple[list[Period], list[tuple[int, int]]]:
    if date_column is None:
        return [], []
    column = info.column(date_column)
    if column is None or column.minimum is None or column.maximum is None:
        return [], []
    first = pd.Timestamp(str(column.minimum)).date()
    last = pd.Timestamp(str(column.maximum)).date()
    found = dates.windows(text, first=first, last=last, language=language)
    periods = [Period(start=w.start.isoformat(), end=w.end.isoformat(), label=w.label) for w in found]
    return periods, [w.span for w in found]


def _period_filters(r: Reading) -> list[Filter]:
    if r.date_column is None:
        return []
    period = r.periods[0]
    if len(r.periods) > 1:  # several windows without a comparison: take all of them
        period = Period(
            start=min(p.start for p in r.periods),
            end=max(p.end for p in r.periods),
            label="・".join(p.label for p in r.periods),
        )
    return [Filter(column=r.date_column, op="between", value=[period.start, period.end], text=period.label)]


def _previous_periods(r: Reading, info: DataFrameInfo) -> list[Period]:
    """前年比 / 前月比 without named periods: the last complete period and the one before."""
    if r.date_column is None:
        return []
    column = info.column(r.date_column)
    if column is None or column.maximum is None:
        return []
    last = pd.Timestamp(str(column.maximum))
    first = pd.Timestamp(str(column.minimum))
    monthly = bool(re.search(r"前月比|month over month|mom", r.lowered))
    if monthly:
        end = date(last.year, last.month, 1)
        middle = (pd.Timestamp(end) - pd.DateOffset(months=1)).date()
        start = (pd.Timestamp(end) - pd.DateOffset(months=2)).date()
    elif "前年度比" in r.lowered:  # fiscal years, April to March: the last complete one and the one before
        end = date(last.year + (1 if last.month >= 4 else 0), 4, 1)
        ja = r.language == "ja"
        # the last complete fiscal year, unless the one before it has no data: then the latest, partial one
        if end - timedelta(days=1) > last.date() and date(end.year - 3, 4, 1) >= first.date() - timedelta(days=31):
            end = date(end.year - 1, 4, 1)
        elif end - timedelta(days=1) > last.date():
            r.assumptions.append(
                "最新の年度は途中までのデータです。" if ja else "The latest fiscal year is not complete."
            )
        middle, start = date(end.year - 1, 4, 1), date(end.year - 2, 4, 1)
        r.assumptions.append(
            "年度は4月〜翌年3月の会計年度として比べました。" if ja else "Fiscal years run April to March."
        )
        return [
            Period(
                start=start.isoformat(), end=middle.isoformat(), label=f"{start.year}年度" if ja else f"FY{start.year}"
            ),
            Period(
                start=middle.isoformat(), end=end.isoformat(), label=f"{middle.year}年度" if ja else f"FY{middle.year}"
            ),
        ]
    else:
        end = date(last.year, 1, 1) if last.month < 12 else date(last.year + 1, 1, 1)
        middle = date(end.year - 1, 1, 1)
        start = date(end.year - 2, 1, 1)
    if pd.Timestamp(start) < first.normalize() - pd.Timedelta(days=31):
        return []
    label = dates._label_month if monthly else (lambda d, lang: f"{d.year}年" if lang == "ja" else str(d.year))
    return [
        Period(start=start.isoformat(), end=middle.isoformat(), label=label(start, r.language)),
        Period(start=middle.isoformat(), end=end.isoformat(), label=label(middle, r.language)),
    ]


def _auto_unit(info: DataFrameInfo, date_column: str | None) -> TimeUnit:
    column = info.column(date_column) if date_column else None
    if column is None or column.minimum is None or column.maximum is None:
        return "M"
    span = pd.Timestamp(str(column.maximum)) - pd.Timestamp(str(column.minimum))
    if span.days <= 62:
        return "D"
    if span.days <= 3 * 366:
        return "M"
    return "Y"


_WORD_NUMBERS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10}
# "多い都市を2つ", "the 3 sensors with the most …": a count of items next to an ordering word.
_COUNTED = (
    re.compile(  # 年齢が高い順に3人, 売上の多い順で5件
        r"(?P<order>多い|少ない|高い|低い|大きい|小さい|長い|短い|安い|古い|新しい|若い|早い|遅い)順(?:に|で)?\s*"
        r"(?:並べて)?\s*(?P<n>\d+|[一二三四五六七八九十]+)\s*(?:つ|件|個|人|名|社|か国|カ国|ヶ国|都市|店舗?|位|行)"
    ),
    re.compile(
        r"(?P<order>多い|少ない|高い|低い|大きい|小さい|長い|短い|安い|売れた)[^、。?？]{0,12}?を\s*"
        r"(?P<n>\d+|[一二三四五六七八九十]+)\s*(?:つ|件|個|人|社|か国|カ国|ヶ国|都市|店舗?|位)"
    ),
    re.compile(
        r"\b(?P<n>\d+|two|three|four|five|six|seven|eight|nine|ten)\s+(?:[a-z_]+\s+){1,2}?"
        r"(?:with|that have|that had|having|have|has|had|are|were)\s+the\s+"
        r"(?P<order>highest|most|largest|biggest|lowest|least|fewest|smallest|coldest|warmest)\b"
    ),
)
_SMALL_FIRST = re.compile(
    r"(?:少な|低|小さ|短|安)い(?:順|方|ほう|もの)?|\b(?:shortest|cheapest|fewest|lowest|smallest)\b"
)
_SMALL = re.compile(r"少な|低|小さ|短|安|若|早|古|lowest|least|fewest|smallest|coldest")


def read_top(lowered: str) -> tuple[int | None, list[tuple[int, int]], bool]:
    """The N items asked for (上位5, ワースト三, "top 3", "the 3 largest", 多い都市を2つ), where, and smallest first."""
    ascending = bool(re.search(ASCENDING, lowered))
    for pattern in TOP_N:
        match = re.search(pattern, lowered)
        if match:
            for name, value in match.groupdict().items():
                if value:
                    number = int(value) if value.isdigit() else kanji_number(value)
                    # 短い診療科を上位3つ, "the 3 cheapest": the smallest lead when the ordering word says so
                    smallest = bool(_SMALL_FIRST.search(lowered))
                    return number, [match.span()], ascending or smallest or name.startswith("worst")
    for counted in _COUNTED:
        found = counted.search(lowered)
        if found:
            value = found.group("n")
            number = int(value) if value.isdigit() else _WORD_NUMBERS.get(value) or kanji_number(value)
            return number, [found.span("n")], ascending or bool(_SMALL.search(found.group("order")))
    return None, [], ascending


def _value_filter(r: Reading) -> bool:
    return any(f.op in ("==", "in") and isinstance(f.value, str | list) for f in r.filters)


def _wants_one(r: Reading) -> bool:
    return any(stat in ("max", "min") for _, stat in r.stats)


def _wants_smallest(r: Reading) -> bool:
    ordering = [stat for _, stat in r.stats if stat in ("max", "min")]
    return bool(ordering) and ordering[0] == "min"


# --- asking back -------------------------------------------------------------------------


def _capabilities(r: Reading, info: DataFrameInfo) -> Clarification:
    numeric = [c.name for c in info.column_info if c.kind == "number"][:6]
    category = [c.name for c in info.column_info if c.kind == "category"][:4]
    if r.language == "ja":
        example_n = numeric[0] if numeric else "数値の列"
        example_c = category[0] if category else "カテゴリの列"
        question = (
            "質問の意図を読み取れませんでした。オフラインの分析エンジンは、合計・平均・中央値・標準偏差・件数、"
            "条件での絞り込み、グループ別の集計、構成比、期間の比較、相関、月別・日別の推移、上位N件、欠損値、"
            f"種類数、外れ値などに答えられます。例:「{example_c}別の{example_n}の合計をグラフにして」"
            f"「{example_n}の月別推移」。列: {'、'.join(numeric + category)}"
        )
    else:
        example_n = numeric[0] if numeric else "a numeric column"
        example_c = category[0] if category else "a category column"
        question = (
            "I could not tell what to compute. Offline, I can answer totals, means, medians, standard "
            "deviations, counts with conditions, group-by aggregations, shares, comparisons between periods, "
            "correlations, monthly or daily trends, top-N lists, missing values, distinct counts and outliers. "
            f"For example: 'total {example_n} by {example_c} as a chart' or 'monthly trend of {example_n}'. "
            f"Columns: {', '.join(numeric + category)}"
        )
    return Clarification(question=question, reason="no analysis recognised")


def _no_numeric(r: Reading, info: DataFrameInfo) -> Clarification:
    columns = ("、" if r.language == "ja" else ", ").join(info.columns[:20])
    if r.language == "ja":
        question = f"このデータには計算できる数値の列がありません（列: {columns}）。件数や種類数なら数えられます。"
    else:
        question = f"This data has no numeric column to compute with (columns: {columns}); I can count rows or values."
    return Clarification(question=question, reason="no numeric column")


def _ask_group(r: Reading, info: DataFrameInfo, task: Task) -> Clarification:
    options = [c.name for c in info.column_info if c.kind in ("category", "boolean")][:10]
    if not options:
        options = [c.name for c in info.column_info if c.kind == "text"][:10] or info.columns[:10]
    if r.language == "ja":
        return Clarification(question=f"どの列ごとに集計しますか？ 候補: {'、'.join(options)}", reason="no group")
    return Clarification(
        question=f"Which column should I group by? Candidates: {', '.join(options)}", reason="no group"
    )


def _ask_periods(r: Reading) -> Clarification:
    if r.language == "ja":
        return Clarification(
            question="比較する2つの期間を教えてください（例:「2024年1月と2月の売上を比較」）。",
            reason="growth needs two periods",
        )
    return Clarification(
        question="Which two periods should I compare (e.g. 'sales in January vs February 2024')?",
        reason="growth needs two periods",
    )


def _ask_date(r: Reading) -> Clarification:
    if r.language == "ja":
        return Clarification(
            question="推移を見るには日付の列が必要ですが、見つかりませんでした。どの列が日付ですか？",
            reason="no date column",
        )
    return Clarification(
        question="A trend needs a date column and I found none. Which column holds the dates?",
        reason="no date column",
    )

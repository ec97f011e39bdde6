"""From a question and a table summary to a `Plan`, or to a precise clarifying question.

The reading is deterministic: find the columns and values the question names, the row
conditions, the date window, the grouping and the statistic (``reading``), then pick the task
whose words and slots fit (``tasks``) and fill its plan (``building``). Whatever was assumed (a
default statistic, the measure when none was named) is recorded so the report can say so. The
plan is then set to the form the question asks for and held against the question: an element it
leaves out, or a form it does not produce, is asked back instead of answered.
"""

from __future__ import annotations

import re
from typing import Final, Literal

from bunseki.brain.analyst.offline import accounting, asking, bands, building, formats, tasks, years
from bunseki.brain.analyst.offline.codegen import describe
from bunseki.brain.analyst.offline.columns import NAME_WORDS, row_label
from bunseki.brain.analyst.offline.intent import answer_format, yes_no
from bunseki.brain.analyst.offline.plan import AgeBands, Clarification, Filter, Plan
from bunseki.brain.analyst.offline.reading import Reading, blank_spans, names_entity, read
from bunseki.brain.analyst.offline.vocab import STATS
from bunseki.brain.text import normalize
from bunseki.data.summary import DataFrameInfo
from bunseki.domain import Language


def plan_question(question: str, info: DataFrameInfo, language: Language) -> Plan | Clarification:
    """The analysis a question asks for, or what to ask back when it cannot be told."""
    requested = answer_format(normalize(question))
    if requested:  # the answers are named (@name[value]): each is a slot of the intent, filled by formats
        return formats.fill(requested, question, info, language)
    info, year = years.as_dates(info)  # year = 2010…2020 without a date column: the time axis
    info, banded = bands.with_bands(info, question)  # 年代別: the decades of an age column, as a column
    reading = read(question, info, language)
    task = tasks.task(reading, info)
    if isinstance(task, Clarification):
        return task
    planned = building.build(task, reading, info)
    if isinstance(planned, Plan):
        planned = _in_form(planned, reading.form, compared=accounting.compares(reading.lowered))
        if planned.compared:
            planned = _subject_first(planned, reading)
        if unused := _unaccounted(planned, reading, info):
            return asking.ask_back(unused, reading.language, describe(planned))
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
    return spans + r.span_spans + r.condition_spans


def _in_form(plan: Plan, form: accounting.Form, *, compared: Literal["higher", "lower"] | None = None) -> Plan:
    """The plan set to answer in the asked form: yes or no is whether any row meets the conditions
    (a yes/no comparison, 「AはBより高いですか」, is no count of rows: it stays what it was)."""
    if compared and form == "yesno":
        return plan.model_copy(update={"form": form, "compared": compared})
    if form == "yesno" and plan.filters and plan.task in ("stat", "count", "group", "top", "describe"):
        stated = [a for a in plan.assumptions if "集計方法" not in a and "No statistic" not in a]
        return plan.model_copy(
            update={
                "form": form,
                "task": "count",
                "target": None,
                "group_by": None,
                "cross": None,
                "top_n": None,
                "assumptions": stated,  # a count of rows: no statistic was assumed
            }
        )
    named = [f for f in plan.filters if f.column == plan.group_by and f.op == "in" and len(f.value) == 2]
    if form in ("difference", "times") and plan.task == "group" and named:
        return plan.model_copy(update={"form": form, "top_n": None})  # both groups, not the larger one
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
    used = accounting.plan_columns(plan)
    # 求人 for 求人ID where the plan counts or measures rows: the rows' own noun, not a column to place
    mentions = [m for m in r.mentions if not (names_entity(m) and m.column not in used)]
    missing = accounting.unaccounted(plan, r.text, mentions, values, info, consumed=consumed)
    source = (info.source or "").casefold()  # ペンギン調査.tsv: a ペンギン is one of its rows
    # 一番多いメニューは？ answered by the name column: メニュー is the rows it names
    named_rows = accounting.asked_nouns(r.text) if _names_rows(plan, info) else set()
    missing += [
        accounting.Unaccounted("term", word)
        for word in [
            *accounting.residue(r.text, placed(r), r.language),
            *accounting.value_like(r.text, placed(r), info),
            *accounting.column_parts(r.text, placed(r), info, used),
            *(accounting.unread_predicate(r.text, placed(r)) if plan.task == "count" and not plan.filters else []),
            *(accounting.unread_clause(r.text, placed(r)) if r.language == "en" else []),
            *(accounting.unread_qualifier(r.text, placed(r)) if r.language == "en" else []),
            *accounting.counted_subject(r.text, placed(r), _unused_flags(used, info)),
        ]
        if word.casefold() not in source and word not in named_rows
    ]
    every_filter = [*plan.filters, *plan.within, *(plan.ratio.part + plan.ratio.base if plan.ratio else [])]
    for written, negation in accounting.dropped_negations(r.text, values, every_filter):
        missing.insert(0, accounting.Unaccounted("negation", written, negation))  # が関わっていない: not these rows
    if not _produces(plan, plan.form, info):
        missing.insert(0, accounting.Unaccounted("form", plan.form))
    blanked = blank_spans(r.lowered, placed(r))
    if accounting.asks_extreme(blanked) and not _ranks(plan):
        missing.insert(0, accounting.Unaccounted("form", "extreme"))  # 一番重い車: no average of weights
    if accounting.asks_change(blanked) and not _changes(plan):
        missing.insert(0, accounting.Unaccounted("form", "change"))  # 最も伸びた国: no average over the years
    ordered = any(stat in ("max", "min") for _, stat in r.stats)
    if (judged := accounting.asks_quality(blanked)) and _ranks(plan) and not ordered:
        missing.insert(0, accounting.Unaccounted("direction", judged, plan.target or ""))  # 燃費が悪い: low or high?
    if (other := _other_statistic(plan, r)) is not None:
        missing.insert(0, accounting.Unaccounted("statistic", other))  # 中央値と四分位範囲: one of two statistics
    if (unread := _share_part_unread(plan, r)) is not None:
        missing.insert(0, accounting.Unaccounted("term", unread))  # 男性のうち浮気経験がある人の割合
    return missing


def _names_rows(plan: Plan, info: DataFrameInfo) -> bool:
    """The plan answers with the name of a row (or of a group of rows named by a name column)."""
    group = plan.group_by or ""
    column = info.column(group)
    return bool(column) and (NAME_WORDS.search(group) is not None or group == row_label(info, repeated=True))


def _unused_flags(used: set[str], info: DataFrameInfo) -> list[str]:
    """The table's yes/no columns (True/False, 1/0, yes/no) the plan does not read (``used``)."""
    return [
        c.name
        for c in info.column_info
        if c.name not in used and (c.kind == "boolean" or yes_no(c.values or []) or set(c.values or []) == {"0", "1"})
    ]


# Statistics no plan computes as a whole answer; a question naming one besides another asks for two.
_UNPLANNED_STATS = re.compile(
    r"四分位範囲|四分位偏差|\biqr\b|interquartile range|\brange\b|範囲は|レンジ|最頻値|歪度|尖度|skewness|kurtosis"
)
_ONE_STATISTIC = ("mean", "median", "sum", "std", "var")


def _other_statistic(plan: Plan, r: Reading) -> str | None:
    """A statistic the question names that the plan does not compute (平均と中央値: it computes one)."""
    if plan.task in ("describe", "answers", "distribution", "outliers", "correlation", "correlation_matrix"):
        return None
    if plan.derived is not None and "=" in r.text:
        return None  # "Daily range = 最高気温 - 最低気温": the name of a formula, not a statistic
    blanked = blank_spans(r.lowered, placed(r))
    if (unplanned := _UNPLANNED_STATS.search(blanked)) is not None:
        return unplanned.group()
    named = {stat for _, stat in r.stats if stat in _ONE_STATISTIC}
    extra = sorted(named - {plan.stat})
    if not extra or (plan.task in ("ratio", "share", "count") and not named - {"sum", "mean"}):
        return None
    words = {
        "mean": ("平均", "mean"),
        "median": ("中央値", "median"),
        "sum": ("合計", "total"),
        "std": ("標準偏差", "standard deviation"),
        "var": ("分散", "variance"),
    }
    return words[extra[0]][0 if r.language == "ja" else 1]


# 「AのうちBの割合」: A is the whole and B the part; a share whose part was read before のうち has lost B.
_AMONG = re.compile(r"のうち|の中で|のなかで|の中の")
_SHARE_END = re.compile(r"(?:の|が)?(?:割合|比率|占める|何\s*[%％]|何パーセント)")


def _share_part_unread(plan: Plan, r: Reading) -> str | None:
    """The words naming a share's part, when the reading took the whole (before のうち) as the part."""
    among = _AMONG.search(r.text)
    if plan.ratio is None or plan.ratio.kind != "share" or among is None:
        return None
    part_at = [r.text.find(f.text) for f in plan.ratio.part if f.text and r.text.find(f.text) >= 0]
    if not part_at or max(part_at) > among.start():
        return None
    end = _SHARE_END.search(r.text, among.end())
    phrase = r.text[among.end() : end.start() if end else len(r.text)].strip("、, ")
    return phrase or None


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

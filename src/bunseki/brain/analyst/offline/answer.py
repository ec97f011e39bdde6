"""From the executed result of a plan to the report: a direct conclusion and its evidence.

Every number in the conclusion is read from the ``BUNSEKI_RESULT`` line the code printed.
"""

from __future__ import annotations

import json
import math
from typing import Any

from bunseki.brain import results
from bunseki.brain.analyst.contract import ExecutionRecord
from bunseki.brain.analyst.offline import catalog, formats, measures, registry
from bunseki.brain.analyst.offline.codegen import GRAIN, describe, group_label, smoothed_name, stat_name
from bunseki.brain.analyst.offline.plan import Plan
from bunseki.brain.analyst.offline.registry import concludes
from bunseki.brain.analyst.offline.text import format_number
from bunseki.data.summary import DataFrameInfo
from bunseki.domain import Language, ReportOutput, ReportSection

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".svg")


def result_of(record: ExecutionRecord) -> dict[str, Any] | None:
    """The machine-readable result the code printed, if any."""
    return results.result_of(record.stdout)


def build_report(
    plan: Plan, record: ExecutionRecord, result: dict[str, Any], info: DataFrameInfo | None = None
) -> ReportOutput:
    """The report for a plan whose code ran and printed ``result``; next steps come from ``info``'s columns."""
    language = plan.language
    conclusion = registry.kind(plan.task).conclusion(plan, result, language)
    sections = [ReportSection(section_type="text", content=_method(plan, result, language))]
    table = _table(plan, result)
    if table:
        sections.append(
            ReportSection(
                section_type="table",
                content=json.dumps(table, ensure_ascii=False),
                description=describe(plan),
            )
        )
    for path in record.artifacts:
        if path.lower().endswith(IMAGE_SUFFIXES):
            sections.append(ReportSection(section_type="image", content=path, description=describe(plan)))
    output = record.visible_stdout
    if output:
        heading = catalog.say("output_heading", language)
        sections.append(ReportSection(section_type="text", content=f"**{heading}**\n\n```\n{output[:3000]}\n```"))
    if plan.task == "answers" and (failed := formats.problems(result, language)):
        sections.append(ReportSection(section_type="text", content=failed))
    return ReportOutput(
        title=describe(plan),
        conclusion=conclusion,
        sections=sections,
        suggestions=catalog.suggestions(plan, info, language) or None,
        assumptions=plan.assumptions,
        language=language,
    )


def failure_report(plan: Plan | None, record: ExecutionRecord | None, language: Language) -> ReportOutput:
    """What to say when the code did not produce a result: the error, and what to try."""
    error = (record.error or "").strip().splitlines()[-1] if record and record.error else ""
    reason = error or catalog.say("failed_reason", language)
    conclusion = catalog.say("failed", language, reason=reason)
    title = catalog.say("failed_title", language)
    sections = (
        [ReportSection(section_type="text", content=f"```\n{record.error if record else ''}\n```")]
        if record and record.error
        else [ReportSection(section_type="text", content=conclusion)]
    )
    return ReportOutput(
        title=title,
        conclusion=conclusion,
        sections=sections,
        assumptions=plan.assumptions if plan else [],
        language=language,
    )


# --- conclusions ---------------------------------------------------------------------------


def _n(value: Any, decimals: int | None = None) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "—"
    return format_number(float(value), decimals=decimals)


def _pct(value: float, *, signed: bool = False, decimals: int = 1) -> str:
    """A percentage, through the one formatter: 12.3%, or +12.3% for a change."""
    sign = "+" if signed and value > 0 else ""
    return f"{sign}{format_number(value, decimals)}%"


SKEWED = 0.5  # |skewness| beyond which a distribution is called skewed (the same convention as measures)


def _join(items: list[str], language: Language) -> str:
    return ("、" if language == "ja" else ", ").join(items)


def _stat_word(plan: Plan, language: Language) -> str:
    return stat_name(plan, language)


def _measure(plan: Plan, language: Language) -> str:
    """What the groups or periods are compared by: 売上の合計, or 件数 when rows are counted."""
    if plan.target is None:
        measure = catalog.say("row_count", language)
    elif plan.rows:  # one row per name: its value, not a total of one
        measure = plan.target
    else:
        measure = catalog.say("what_stat", language, target=plan.target, stat=_stat_word(plan, language))
    smoothed = plan.task == "trend" and (plan.cumulative or plan.rolling)
    return smoothed_name(plan, measure) if smoothed else measure


def _conditions(plan: Plan, language: Language) -> str:
    parts = [f.describe(language) for f in plan.filters]
    if not parts:
        return ""
    return f"（{'、'.join(parts)}）" if language == "ja" else f" ({'; '.join(parts)})"


def _label(value: str, plan: Plan, language: Language) -> str:
    """'2024-07' as 2024年7月 and '2024-Q3' as 2024年第3四半期 in Japanese trends."""
    if language != "ja" or plan.task != "trend" or len(value) != 7 or value[4] != "-":
        return value
    if plan.time_unit == "M" and value[5:].isdigit():
        return f"{value[:4]}年{int(value[5:])}月"
    if plan.time_unit == "Q" and value[5] == "Q":
        return f"{value[:4]}年第{value[6]}四半期"
    return value


@concludes("stat")
def _stat(plan: Plan, result: dict[str, Any], language: Language) -> str:
    where = result.get("where") or {}
    text = catalog.say(
        "stat",
        language,
        target=plan.target,
        stat=_stat_word(plan, language),
        value=_n(result["value"]),
        conditions=_conditions(plan, language),
        rows=_n(result.get("rows")),
    )
    if not where:
        return text
    return text + catalog.say("stat_where", language, place=_join(list(where.values()), language))


@concludes("count")
def _count(plan: Plan, result: dict[str, Any], language: Language) -> str:
    value, total = _n(result["value"]), _n(result.get("total"))
    if plan.form == "yesno":  # is there any …: whether a row meets the conditions, and how many do
        key = "exists_yes" if result["value"] else "exists_no"
        return catalog.say(key, language, value=value, conditions=_conditions(plan, language), total=total)
    if plan.shape:  # 何行何列, how many columns: the table's shape
        return catalog.say("shape", language, rows=value, columns=_n(result.get("columns")))
    return catalog.say("count", language, value=value, conditions=_conditions(plan, language), total=total)


@concludes("group", "top")
def _group(plan: Plan, result: dict[str, Any], language: Language) -> str:
    values = result.get("values") or []
    if (plan.form in ("difference", "times") and len(values) == 2) or (plan.compared and len(values) == 2):
        return _two_groups(plan, values, language)
    tied = result.get("tied") or []
    if not tied:
        return _group_text(plan, result, language)
    names = ("、" if language == "ja" else ", ").join(map(str, tied))
    return _group_text(plan, result, language) + catalog.say("group_tied", language, names=names)


def _two_rates(plan: Plan, values: list[list[Any]], language: Language) -> str:
    """Two named groups' rates (%) compared: the difference in points, the ratio, or yes/no."""
    (first, first_value), (second, second_value) = values
    words = {
        "measure": "、".join(f.describe(language) for f in plan.within) + ("の割合" if language == "ja" else " rate"),
        "first": first,
        "second": second,
        "first_value": _pct(first_value, decimals=2),
        "second_value": _pct(second_value, decimals=2),
        "conditions": _conditions(plan, language),
    }
    if plan.compared:
        holds = first_value > second_value if plan.compared == "higher" else first_value < second_value
        key = ("compared_yes" if holds else "compared_no") + ("_lower" if plan.compared == "lower" else "")
        return catalog.say(key, language, difference=_points(first_value - second_value, language), **words)
    if plan.form == "times":
        times = first_value / second_value if second_value else float("nan")
        return catalog.say("group_times", language, times=_n(times), **words)
    _higher_first(words, first_value < second_value)
    return catalog.say(
        "group_difference", language, difference=_points(abs(first_value - second_value), language), **words
    )


def _higher_first(words: dict[str, str], swap: bool) -> None:
    """A difference is told as how far the higher is above the lower: the higher one named first."""
    if swap:
        words.update(first=words["second"], second=words["first"])
        words.update(first_value=words["second_value"], second_value=words["first_value"])


def _points(value: float, language: Language) -> str:
    return f"{format_number(value, 2)} ポイント" if language == "ja" else f"{format_number(value, 2)} percentage points"


def _two_groups(plan: Plan, values: list[list[Any]], language: Language) -> str:
    """The difference (or ratio) of two groups, the first as the question named them first."""
    named = next((f.value for f in plan.filters if f.column == plan.group_by and f.op == "in"), None)
    by_name = {str(name): float(value) for name, value in values}
    order = [str(v) for v in named] if named and all(str(v) in by_name for v in named) else list(by_name)
    (first, first_value), (second, second_value) = [(name, by_name[name]) for name in order[:2]]
    words = {
        "measure": _measure(plan, language),
        "first": first,
        "second": second,
        "first_value": _n(first_value),
        "second_value": _n(second_value),
        "conditions": _conditions(plan, language),
    }
    if plan.compared:  # is the first higher (lower) than the second: yes or no, with both values
        holds = first_value > second_value if plan.compared == "higher" else first_value < second_value
        key = ("compared_yes" if holds else "compared_no") + ("_lower" if plan.compared == "lower" else "")
        return catalog.say(key, language, difference=_n(first_value - second_value), **words)
    if plan.form == "times":
        times = first_value / second_value if second_value else float("nan")
        return catalog.say("group_times", language, times=_n(times), **words)
    _higher_first(words, first_value < second_value)
    return catalog.say("group_difference", language, difference=_n(abs(first_value - second_value)), **words)


def _group_text(plan: Plan, result: dict[str, Any], language: Language) -> str:
    values = result.get("values") or []
    if not values:
        return catalog.say("no_rows", language)
    head = values[: plan.top_n or 3]
    (first, first_value), (big, small) = values[0], _extremes(values, plan.ascending)
    words = {
        "group": group_label(plan),
        "stat": _stat_word(plan, language),
        "measure": _measure(plan, language),
        "conditions": _conditions(plan, language),
        "first": first,
        "first_value": _n(first_value),
        "count": len(head),
        "groups": len(values),
        "big": big[0],
        "big_value": _n(big[1]),
        "small": small[0],
        "small_value": _n(small[1]),
        "listed": _join([catalog.say("value_count", language, value=k, count=_n(v)) for k, v in head], language),
    }
    if len(values) == 1:  # e.g. a breakdown by region after the data was narrowed to one region
        return catalog.say("group_only", language, **words)
    if plan.top_n == 1:
        return catalog.say("group_lowest" if plan.ascending else "group_highest", language, **words)
    if plan.task == "top":
        return catalog.say("group_bottom_n" if plan.ascending else "group_top_n", language, **words)
    return catalog.say("group_range", language, **words)


def _extremes(values: list[list[Any]], ascending: bool) -> tuple[list[Any], list[Any]]:
    """(largest, smallest) of group values sorted either way."""
    return (values[-1], values[0]) if ascending else (values[0], values[-1])


@concludes("trend")
def _trend(plan: Plan, result: dict[str, Any], language: Language) -> str:
    peak: Any = result.get("peak")
    low: Any = result.get("low")
    first: Any = result.get("first")
    last: Any = result.get("last")
    if not peak:
        return catalog.say("no_rows", language)
    change = (last[1] - first[1]) / first[1] * 100 if first and first[1] else None
    cyclic = plan.time_unit in CYCLIC
    high, low_key = ("cycle_peak", "cycle_low") if cyclic else ("trend_peak", "trend_low")
    extremes = [
        catalog.say(high, language, period=_label(peak[0], plan, language), value=_n(peak[1])),
        catalog.say(low_key, language, period=_label(low[0], plan, language), value=_n(low[1])),
    ]
    if plan.ascending:  # the lowest period was asked for: it comes first
        extremes.reverse()
    if plan.form in ("date", "name"):  # 一番多かった年は？: that period alone, not the other end or the change
        extremes = extremes[:1]
        change = None
    text = catalog.say(
        "trend",
        language,
        measure=_measure(plan, language),
        extremes=("、" if language == "ja" else " and ").join(extremes),
        conditions=_conditions(plan, language),
    )
    if change is not None and not cyclic:  # Monday to Sunday is no change over time
        text += catalog.say(
            "trend_change",
            language,
            first=_label(first[0], plan, language),
            first_value=_n(first[1]),
            last=_label(last[0], plan, language),
            last_value=_n(last[1]),
            change=_pct(change, signed=True),
        )
    direction = "" if plan.form in ("date", "name") else _direction(result, plan, language)
    return text + direction + _partial(plan, result, language) + _leading_group(plan, result, language)


def _partial(plan: Plan, result: dict[str, Any], language: Language) -> str:
    """Which first or last period the data cover only in part (and so were left out of the comparison)."""
    partial = [_label(str(period), plan, language) for period in result.get("partial") or []]
    if not partial:
        return ""
    grain = GRAIN[language].get(plan.time_unit or "M", "")
    joined = ("、" if language == "ja" else " and ").join(partial)
    return catalog.say("trend_partial", language, periods=joined, grain=grain)


CYCLIC = ("weekday", "daytype")  # periods that repeat: no first-to-last change, no slope
FLAT = 0.02  # a fitted change over the whole span under 2 % of the mean level reads as flat


def _direction(result: dict[str, Any], plan: Plan, language: Language) -> str:
    """The overall direction from the slope fitted over the period totals, with the slope and its grain."""
    slope, values = result.get("slope"), [v for _, v in result.get("values") or [] if isinstance(v, int | float)]
    periods = result.get("periods", len(values))  # values holds only the first periods of a long trend
    if not isinstance(slope, int | float) or periods < 2 or plan.time_unit in CYCLIC:
        return ""
    level = abs(result["level"] if isinstance(result.get("level"), int | float) else sum(values) / len(values))
    flat = level > 0 and abs(slope) * (periods - 1) < FLAT * level
    word = catalog.say("trend_flat" if flat else "trend_up" if slope > 0 else "trend_down", language)
    grain = GRAIN[language].get(plan.time_unit or "M", "")
    return catalog.say("trend_direction", language, word=word, grain=grain, slope=_n(slope))


def _leading_group(plan: Plan, result: dict[str, Any], language: Language) -> str:
    """For a trend split by group: which group is largest over the whole period."""
    totals = result.get("group_totals") or []
    if not totals:
        return ""
    top, value = totals[0]
    return catalog.say("trend_leader", language, group=plan.group_by, top=top, value=_n(value), groups=len(totals))


@concludes("share")
def _share(plan: Plan, result: dict[str, Any], language: Language) -> str:
    if result.get("mix"):
        return _share_mix(plan, result, language)
    values = result.get("values") or []
    if not values:
        return catalog.say("no_rows", language)
    if result.get("within"):
        return _share_within(plan, result, language)
    focus = [row for row in values if row[0] in (result.get("focus") or [])]
    listed = [
        catalog.say("share_item", language, value=k, share=_pct(p), amount=_n(v)) for k, v, p in focus or values[:3]
    ]
    return catalog.say(
        "share",
        language,
        group=plan.group_by,
        what=plan.target or catalog.say("rows_word", language),
        listed=_join(listed, language),
        conditions=_conditions(plan, language),
    )


def _share_mix(plan: Plan, result: dict[str, Any], language: Language) -> str:
    groups = result.get("groups") or []
    if not groups:
        return catalog.say("no_rows", language)
    separator = "、" if language == "ja" else ", "
    listed = [
        catalog.say(
            "share_mix_item", language, group=name, listed=separator.join(f"{k} {_pct(p)}" for k, p, _ in mix[:3])
        )
        for name, mix in groups[:5]
    ]
    return catalog.say(
        "share_mix",
        language,
        group=plan.group_by,
        cross=plan.cross,
        listed=("、" if language == "ja" else "; ").join(listed),
        conditions=_conditions(plan, language),
    )


def _share_within(plan: Plan, result: dict[str, Any], language: Language) -> str:
    values, whole = result["values"], result.get("whole") or {}
    rates = {str(k): p for k, _, p in values}
    if (
        len(plan.focus) == 2
        and all(str(f) in rates for f in plan.focus)
        and (plan.form in ("difference", "times") or plan.compared)
    ):
        return _two_rates(plan, [[str(f), rates[str(f)]] for f in plan.focus], language)
    listed = [
        catalog.say("share_within_item", language, value=k, share=_pct(p), part=_n(v), whole=_n(whole.get(k, 0)))
        for k, v, p in values[:3]
    ]
    return catalog.say(
        "share_within",
        language,
        group=plan.group_by,
        what=plan.target or catalog.say("rows_word", language),
        condition="、".join(f.describe(language) for f in plan.within),
        extreme=catalog.say("share_within_low" if plan.ascending else "share_within_high", language),
        top=values[0][0],
        listed=_join(listed, language),
        conditions=_conditions(plan, language),
    )


@concludes("ratio")
def _ratio(plan: Plan, result: dict[str, Any], language: Language) -> str:
    ratio, value = plan.ratio, result.get("value")
    if ratio is None or value is None or (isinstance(value, float) and math.isnan(value)):
        return catalog.say("no_rows", language)
    what = (
        catalog.say("ratio_measure", language, target=plan.target, stat=_stat_word(plan, language))
        if plan.target
        else catalog.say("rows_word", language)
    )
    words = {
        "what": what,
        "What": what[:1].upper() + what[1:],
        "part": _n(result.get("part")),
        "base": _n(result.get("base")),
        "part_label": ratio.part_label,
        "base_label": ratio.base_label,
        "conditions": _conditions(plan, language),
    }
    if ratio.kind == "share":
        return catalog.say("ratio_share", language, value=_pct(value), **words)
    direction = catalog.say("change_up" if value > 0 else "change_down", language)
    return catalog.say("ratio_change", language, value=_pct(value, signed=True), direction=direction, **words)


@concludes("growth")
def _growth(plan: Plan, result: dict[str, Any], language: Language) -> str:
    (first_label, first_value), (second_label, second_value) = result["periods"][:2]
    if plan.target is None:  # rows counted in each period
        plan = plan.model_copy(update={"target": "行" if language == "ja" else "rows", "stat": "count"})
    rate = result.get("rate")
    change = result["change"]  # the sign and the word say the same thing
    word = catalog.say("change_down" if change < 0 else "change_up" if change > 0 else "change_none", language)
    words = {
        "target": plan.target,
        "stat": _stat_word(plan, language),
        "first": first_label,
        "first_value": _n(first_value),
        "second": second_label,
        "second_value": _n(second_value),
    }
    if plan.form == "times" and first_value:
        return catalog.say("growth_times", language, times=_n(second_value / first_value), **words)
    shown_rate = (
        catalog.say("growth_rate", language, rate=_pct(rate, signed=True), word=word)
        if rate is not None
        else catalog.say("growth_word", language, word=word)
    )
    text = catalog.say("growth", language, change=_n(change), rate=shown_rate, **words)
    if plan.form == "difference":  # 2008年と2010年でどれだけ違う: how far apart first, then which way
        return catalog.say("growth_difference", language, difference=_n(abs(change))) + text
    return text


@concludes("distinct")
def _distinct(plan: Plan, result: dict[str, Any], language: Language) -> str:
    values = [str(k) for k, _ in result.get("top", [])[:10]]
    return catalog.say(
        "distinct",
        language,
        target=plan.target,
        value=_n(result["value"]),
        conditions=_conditions(plan, language),
        values=_join(values, language),
    )


@concludes("duplicates")
def _duplicates(plan: Plan, result: dict[str, Any], language: Language) -> str:
    columns = result.get("columns")
    among = catalog.say("duplicates_among", language, columns=_join(columns, language)) if columns else ""
    if not result.get("repeated"):
        return catalog.say("no_duplicates", language, rows=_n(result.get("rows")), among=among)
    return catalog.say(
        "duplicates",
        language,
        repeated=_n(result["repeated"]),
        involved=_n(result.get("involved")),
        rows=_n(result.get("rows")),
        among=among,
    )


@concludes("missing")
def _missing(plan: Plan, result: dict[str, Any], language: Language) -> str:
    columns = [row for row in result.get("columns", []) if row[1] > 0]
    if not columns:
        return catalog.say("no_missing", language)
    listed = [
        catalog.say("missing_item", language, column=k, count=_n(v), percent=_pct(p, decimals=2))
        for k, v, p in columns[:8]
    ]
    return catalog.say("missing", language, total=_n(result["total"]), listed=_join(listed, language))


def _strength(r: float, language: Language) -> str:
    """The correlation in words, on the same scale as a format's "strong"/"moderate"/"weak" labels."""
    level = measures.strength(r)
    sign = r > 0
    if level == "none":
        return catalog.say("corr_none", language)
    word = catalog.say(f"corr_{level}", language)
    return catalog.say("corr_positive" if sign else "corr_negative", language, level=word)


@concludes("correlation")
def _correlation(plan: Plan, result: dict[str, Any], language: Language) -> str:
    """The coefficient of the method that was asked for and computed, with that method's own p-value."""
    a, b = result["columns"]
    method = str(result.get("method", "pearson"))
    r = float(result["r"])
    name = catalog.say(f"corr_{method}", language) if f"corr_{method}" in catalog.TEXTS else method
    pearson = "" if method == "pearson" else catalog.say("corr_also_pearson", language, r=_n(result["pearson"], 3))
    return catalog.say(
        "correlation",
        language,
        a=a,
        b=b,
        name=name,
        r=_n(r, 3),
        strength=_strength(r, language),
        p=_n(result["p"]),
        n=_n(result["n"]),
        pearson=pearson,
    ) + _together(a, b, r, language)


def _together(a: str, b: str, r: float, language: Language) -> str:
    """How one measure moves as the other grows, said in words (only when the correlation is not negligible)."""
    if measures.strength(r) == "none":
        return ""
    return catalog.say("together_up" if r > 0 else "together_down", language, a=a, b=b)


@concludes("correlation_matrix")
def _correlation_matrix(plan: Plan, result: dict[str, Any], language: Language) -> str:
    pairs = result.get("pairs") or []
    if not pairs:
        return catalog.say("no_pairs", language)
    a, b, r = pairs[0]
    listed = [catalog.say("pair_item", language, a=x, b=y, r=_n(v, 2)) for x, y, v in pairs[:3]]
    return catalog.say("strongest_pair", language, a=a, b=b, r=_n(r, 3), listed=_join(listed, language))


@concludes("outliers")
def _outliers(plan: Plan, result: dict[str, Any], language: Language) -> str:
    rule = catalog.say(f"outlier_rule_{result['method']}", language, threshold=result["threshold"])
    return catalog.say(
        "outliers",
        language,
        target=plan.target,
        rule=rule,
        rows=_n(result["rows"]),
        count=_n(result["count"]),
        lower=_n(result["lower"]),
        upper=_n(result["upper"]),
    )


@concludes("distribution")
def _distribution(plan: Plan, result: dict[str, Any], language: Language) -> str:
    if result.get("kind") == "category":
        listed = [catalog.say("value_count", language, value=k, count=_n(v)) for k, v in result["values"][:3]]
        return catalog.say("distribution_labels", language, target=plan.target, listed=_join(listed, language))
    summary = result["summary"]
    skew = result.get("skew", 0.0)
    shape = "skew_right" if skew > SKEWED else "skew_left" if skew < -SKEWED else "skew_none"
    return catalog.say(
        "distribution_numbers",
        language,
        target=plan.target,
        mean=_n(summary["mean"]),
        median=_n(summary["50%"]),
        low=_n(summary["min"]),
        high=_n(summary["max"]),
        shape=catalog.say(shape, language),
        skew=_n(skew, 2),
    )


@concludes("describe")
def _describe(plan: Plan, result: dict[str, Any], language: Language) -> str:
    if result.get("column"):
        summary = result.get("summary", {})
        shown = ", ".join(f"{k}: {v}" for k, v in list(summary.items())[:8])
        return catalog.say("column_summary", language, column=result["column"], shown=shown)
    dates = list((result.get("dates") or {}).values())[:1]
    span = "".join(catalog.say("data_span", language, first=v[0][:10], last=v[1][:10]) for v in dates)
    return catalog.say(
        "data_overview",
        language,
        rows=_n(result["rows"]),
        columns=result["columns"],
        span=span,
        missing=_n(result["missing"]),
        numeric=_join(list(result.get("numeric", {})), language),
    )


@concludes("span")
def _span(plan: Plan, result: dict[str, Any], language: Language) -> str:
    if result.get("start") in (None, "NaT") or result.get("end") in (None, "NaT"):
        return catalog.say("no_rows", language)
    return catalog.say(
        "span",
        language,
        what=describe(plan).split("（")[0].split(" (")[0],
        value=_n(result["value"]),
        start=result["start"],
        end=result["end"],
        conditions=_conditions(plan, language),
    )


# --- evidence ------------------------------------------------------------------------------


def _method(plan: Plan, result: dict[str, Any], language: Language) -> str:
    rows = result.get("rows")
    text = catalog.say("method", language, what=describe(plan))
    if isinstance(rows, int):
        text += catalog.say("method_rows", language, rows=_n(rows))
    return text + catalog.say("method_source", language)


def _table(plan: Plan, result: dict[str, Any]) -> list[dict[str, Any]] | None:
    ja = plan.language == "ja"
    if plan.task == "answers":
        return formats.table(plan, result)
    if result.get("mix"):
        share = "割合(%)" if ja else "share (%)"
        return [
            {str(plan.group_by): name, str(plan.cross): k, share: round(p, 2)}
            for name, mix in result["groups"]
            for k, p, _ in mix
        ]
    if "values" in result and plan.task in ("group", "top", "trend", "share"):
        key = str(plan.group_by) if plan.task != "trend" else ("期間" if ja else "period")
        value = (
            f"{plan.target or ('件数' if ja else 'rows')}（{_stat_word(plan, plan.language)}）"
            if ja
            else f"{_stat_word(plan, plan.language)} of {plan.target or 'rows'}"
        )
        rows = result["values"][: plan.top_n or 50]
        if plan.task == "share":
            percent = ("割合(%)" if ja else "share within (%)") if plan.within else ("構成比(%)" if ja else "share (%)")
            return [{key: k, value: v, percent: round(p, 2)} for k, v, p in rows]
        return [{key: _label(k, plan, plan.language), value: v} for k, v in rows]
    if plan.task == "growth":
        return [{"期間" if ja else "period": k, plan.target or "value": v} for k, v in result["periods"]]
    if plan.task == "missing":
        return [
            {"列" if ja else "column": k, "欠損数" if ja else "missing": v, "%": round(p, 2)}
            for k, v, p in result.get("columns", [])
            if v > 0
        ] or None
    if plan.task == "correlation_matrix":
        return [{"A": a, "B": b, "r": round(r, 4)} for a, b, r in result.get("pairs", [])]
    if plan.task == "distinct":
        return [{plan.target or "value": k, "件数" if ja else "rows": v} for k, v in result.get("top", [])]
    return None


# --- data steps ----------------------------------------------------------------------------


def tool_report(
    tools: list[ExecutionRecord], data_state: str | None, language: Language, info: DataFrameInfo | None = None
) -> ReportOutput:
    """The report of a request that changed the data: what each step did, and the data now."""
    done = [record for record in tools if record.success]
    failed = [record for record in tools if not record.success]
    parts = [record.stdout.splitlines()[0] for record in done if record.stdout]
    if failed:
        problem = (failed[-1].error or "").removeprefix("ToolRetry: ")
        parts.append(catalog.say("step_failed", language, problem=problem))
    state = (data_state or "").split(": ", 1)[0]  # the steps behind it are already listed above
    if state and state not in " ".join(parts):
        parts.append(catalog.say("active_data", language, state=state))
    sections = [_steps_section(tools, language)]
    preview = next((record for record in reversed(done) if "\n" in record.stdout), None)
    if preview is not None:
        heading = catalog.say("first_rows", language)
        rows = preview.stdout.split("\n", 1)[1]
        sections.append(ReportSection(section_type="text", content=f"**{heading}**\n\n```\n{rows[:3000]}\n```"))
    title = catalog.say("data_changed" if done else "data_unchanged", language)
    return ReportOutput(
        title=title,
        conclusion=" ".join(parts) or title,
        sections=sections,
        language=language,
        suggestions=catalog.suggestions(None, info, language, task="tools"),
    )


def with_tool_steps(report: ReportOutput, tools: list[ExecutionRecord]) -> ReportOutput:
    """The report with the data steps of this turn listed first among the evidence."""
    return report.model_copy(update={"sections": [_steps_section(tools, report.language), *report.sections]})


def _steps_section(tools: list[ExecutionRecord], language: Language) -> ReportSection:
    heading = catalog.say("steps_heading", language)
    lines = []
    for record in tools:
        mark = "✓" if record.success else "✗"
        said = record.stdout.splitlines()[0] if record.success and record.stdout else (record.error or "")
        lines.append(f"- {mark} `{record.code}` — {said}")
    return ReportSection(section_type="text", content=f"**{heading}**\n\n" + "\n".join(lines))

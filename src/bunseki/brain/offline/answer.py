"""From the executed result of a plan to the report: a direct conclusion and its evidence.

Every number in the conclusion is read from the ``BUNSEKI_RESULT`` line the code printed.
"""

from __future__ import annotations

import json
import math
from typing import Any

from bunseki.brain.models import RESULT_MARKER, ExecutionRecord, Language
from bunseki.brain.offline.codegen import STAT_NAMES, describe
from bunseki.brain.offline.plan import Plan
from bunseki.brain.offline.text import format_number
from bunseki.report.models import ReportOutput, ReportSection

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".svg")


def result_of(record: ExecutionRecord) -> dict[str, Any] | None:
    """The machine-readable result the code printed, if any."""
    for line in reversed(record.stdout.splitlines()):
        if line.startswith(RESULT_MARKER):
            try:
                parsed = json.loads(line[len(RESULT_MARKER) :])
            except json.JSONDecodeError:
                return None
            return parsed if isinstance(parsed, dict) else None
    return None


def build_report(plan: Plan, record: ExecutionRecord, result: dict[str, Any]) -> ReportOutput:
    """The report for a plan whose code ran and printed ``result``."""
    language = plan.language
    conclusion = CONCLUSIONS[plan.task](plan, result, language)
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
        heading = "実行結果（抜粋）" if language == "ja" else "Execution output (excerpt)"
        sections.append(ReportSection(section_type="text", content=f"**{heading}**\n\n```\n{output[:3000]}\n```"))
    return ReportOutput(
        title=describe(plan),
        conclusion=conclusion,
        sections=sections,
        suggestions=SUGGESTIONS[language].get(plan.task),
        assumptions=plan.assumptions,
        language=language,
    )


def failure_report(plan: Plan | None, record: ExecutionRecord | None, language: Language) -> ReportOutput:
    """What to say when the code did not produce a result: the error, and what to try."""
    error = (record.error or "").strip().splitlines()[-1] if record and record.error else ""
    if language == "ja":
        reason = error or "結果が得られませんでした"
        conclusion = f"計算を完了できませんでした（{reason}）。列名や条件を変えて、もう一度質問してください。"
        title = "分析できませんでした"
    else:
        reason = error or "no result"
        conclusion = f"The computation did not complete ({reason}). Please rephrase the question or name the columns."
        title = "The analysis could not be completed"
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


def _stat_word(plan: Plan, language: Language) -> str:
    return STAT_NAMES[language].get(str(plan.stat), str(plan.stat))


def _conditions(plan: Plan, language: Language) -> str:
    parts = [f.describe(language) for f in plan.filters]
    if not parts:
        return ""
    return f"（{'、'.join(parts)}）" if language == "ja" else f" ({'; '.join(parts)})"


def _label(value: str, plan: Plan, language: Language) -> str:
    """'2024-07' as 2024年7月 in Japanese trends."""
    if language == "ja" and plan.task == "trend" and plan.time_unit == "M" and len(value) == 7 and value[4] == "-":
        return f"{value[:4]}年{int(value[5:])}月"
    return value


def _stat(plan: Plan, result: dict[str, Any], language: Language) -> str:
    value, rows = _n(result["value"]), _n(result.get("rows"))
    where = result.get("where") or {}
    place = "、".join(where.values()) if language == "ja" else ", ".join(where.values())
    if language == "ja":
        stat = _stat_word(plan, language)
        text = f"{plan.target} の{stat}は {value} です{_conditions(plan, language)}。対象は {rows} 行です。"
        return text + (f"該当する行: {place}。" if place else "")
    text = (
        f"The {_stat_word(plan, language)} of {plan.target} is {value}{_conditions(plan, language)}, over {rows} rows."
    )
    return text + (f" It occurs at: {place}." if place else "")


def _count(plan: Plan, result: dict[str, Any], language: Language) -> str:
    value, total = _n(result["value"]), _n(result.get("total"))
    if plan.options.get("shape"):  # 何行何列, how many columns: the table's shape
        columns = _n(result.get("columns"))
        if language == "ja":
            return f"データは {value} 行 × {columns} 列です（列数 {columns}、行数 {value}）。"
        return f"The data has {value} rows and {columns} columns."
    if language == "ja":
        return f"条件に合う行は {value} 件です{_conditions(plan, language)}（全 {total} 件中）。"
    return f"{value} rows match{_conditions(plan, language)}, out of {total}."


def _group(plan: Plan, result: dict[str, Any], language: Language) -> str:
    tied = result.get("tied") or []
    if not tied:
        return _group_text(plan, result, language)
    names = ("、" if language == "ja" else ", ").join(map(str, tied))
    if language == "ja":
        return _group_text(plan, result, language) + f"（{names} も同じ値で並んでいます）"
    return _group_text(plan, result, language) + f" ({names} tie with the last one shown.)"


def _group_text(plan: Plan, result: dict[str, Any], language: Language) -> str:
    values = result.get("values") or []
    if not values:
        return "該当するデータがありません。" if language == "ja" else "No rows match."
    stat = _stat_word(plan, language)
    what = plan.target or ("件数" if language == "ja" else "row count")
    head = values[: plan.top_n or 3]
    listed = (
        "、".join(f"{k}（{_n(v)}）" for k, v in head)
        if language == "ja"
        else ", ".join(f"{k} ({_n(v)})" for k, v in head)
    )
    first_name, first_value = values[0]
    conditions = _conditions(plan, language)
    if len(values) == 1:  # e.g. a breakdown by region after the data was narrowed to one region
        if language == "ja":
            return f"{plan.group_by}は {first_name} だけで、{what}の{stat}は {_n(first_value)} です{conditions}。"
        return f"Only {first_name} is left in {plan.group_by}: the {stat} of {what} is {_n(first_value)}{conditions}."
    if language == "ja":
        if plan.top_n == 1:
            extreme = "最も小さい" if plan.ascending else "最も大きい"
            return (
                f"{plan.group_by}別の{what}の{stat}が{extreme}のは {first_name}（{_n(first_value)}）です{conditions}。"
            )
        if plan.task == "top":
            order = "小さい" if plan.ascending else "大きい"
            return f"{what}の{stat}が{order}順の上位{len(head)}件: {listed}{conditions}。"
        big, small = _extremes(values, plan.ascending)
        return (
            f"{plan.group_by}別の{what}の{stat}は {big[0]} が最大（{_n(big[1])}）、"
            f"{small[0]} が最小（{_n(small[1])}）です"
            f"{conditions}。{len(values)} グループの上位: {listed}。"
        )
    if plan.top_n == 1:
        extreme = "lowest" if plan.ascending else "highest"
        return f"{first_name} has the {extreme} {stat} of {what} ({_n(first_value)}){conditions}."
    if plan.task == "top":
        order = "bottom" if plan.ascending else "top"
        return f"The {order} {len(head)} by {stat} of {what}: {listed}{conditions}."
    big, small = _extremes(values, plan.ascending)
    return (
        f"By {plan.group_by}, the {stat} of {what} is largest for {big[0]} ({_n(big[1])}) and smallest for "
        f"{small[0]} ({_n(small[1])}){conditions}. Leading: {listed}."
    )


def _extremes(values: list[list[Any]], ascending: bool) -> tuple[list[Any], list[Any]]:
    """(largest, smallest) of group values sorted either way."""
    return (values[-1], values[0]) if ascending else (values[0], values[-1])


def _trend(plan: Plan, result: dict[str, Any], language: Language) -> str:
    peak: Any = result.get("peak")
    low: Any = result.get("low")
    first: Any = result.get("first")
    last: Any = result.get("last")
    if not peak:
        return "該当するデータがありません。" if language == "ja" else "No rows match."
    change = (last[1] - first[1]) / first[1] * 100 if first and first[1] else None
    stat = _stat_word(plan, language)
    what = plan.target or ("件数" if language == "ja" else "rows")
    direction = _direction(result, plan, language)
    if language == "ja":
        extremes = [
            f"{_label(peak[0], plan, language)} に最大（{_n(peak[1])}）",
            f"{_label(low[0], plan, language)} に最小（{_n(low[1])}）",
        ]
        if plan.ascending:  # the lowest period was asked for: it comes first
            extremes.reverse()
        text = f"{what}の{stat}は {'、'.join(extremes)}です{_conditions(plan, language)}。"
        if change is not None:
            text += (
                f"{_label(first[0], plan, language)} の {_n(first[1])} から {_label(last[0], plan, language)} の "
                f"{_n(last[1])} へ {change:+.1f}% 変化しました。"
            )
        return text + direction + _leading_group(plan, result, language)
    extremes = [f"peaks in {peak[0]} ({_n(peak[1])})", f"is lowest in {low[0]} ({_n(low[1])})"]
    if plan.ascending:
        extremes.reverse()
    text = f"The {stat} of {what} {' and '.join(extremes)}{_conditions(plan, language)}."
    if change is not None:
        text += f" From {first[0]} ({_n(first[1])}) to {last[0]} ({_n(last[1])}) it changed by {change:+.1f}%."
    return text + direction + _leading_group(plan, result, language)


FLAT = 0.02  # a fitted change over the whole span under 2 % of the mean level reads as flat
GRAIN = {
    "ja": {"D": "日", "W": "週", "M": "月", "Q": "四半期", "Y": "年", "weekday": "曜日"},
    "en": {"D": "day", "W": "week", "M": "month", "Q": "quarter", "Y": "year", "weekday": "weekday"},
}


def _direction(result: dict[str, Any], plan: Plan, language: Language) -> str:
    """The overall direction from the slope fitted over the period totals, with the slope and its grain."""
    slope, values = result.get("slope"), [v for _, v in result.get("values") or [] if isinstance(v, int | float)]
    if not isinstance(slope, int | float) or len(values) < 2 or plan.time_unit == "weekday":
        return ""
    level = abs(sum(values) / len(values))
    flat = level > 0 and abs(slope) * (len(values) - 1) < FLAT * level
    grain = GRAIN[language].get(plan.time_unit or "M", "")
    if language == "ja":
        word = "横ばい" if flat else ("増加傾向" if slope > 0 else "減少傾向")
        return f"全体として{word}です（{grain}ごとの値に当てはめた直線の傾き {_n(slope)}/{grain}）。"
    word = "flat" if flat else ("increasing" if slope > 0 else "decreasing")
    return f" Overall it is {word} (slope of a line fitted to the values per {grain}: {_n(slope)} per {grain})."


def _leading_group(plan: Plan, result: dict[str, Any], language: Language) -> str:
    """For a trend split by group: which group is largest over the whole period."""
    totals = result.get("group_totals") or []
    if not totals:
        return ""
    top, value = totals[0]
    if language == "ja":
        return (
            f"{plan.group_by}別では期間合計で {top}（{_n(value)}）が最も大きく、{len(totals)} グループを示しています。"
        )
    return f" By {plan.group_by}, {top} is largest over the period ({_n(value)}); {len(totals)} groups are shown."


def _share(plan: Plan, result: dict[str, Any], language: Language) -> str:
    values = result.get("values") or []
    if not values:
        return "該当するデータがありません。" if language == "ja" else "No rows match."
    focus = [row for row in values if row[0] in (result.get("focus") or [])]
    shown = focus or values[:3]
    if language == "ja":
        listed = "、".join(f"{k} {p:.1f}%（{_n(v)}）" for k, v, p in shown)
        return f"{plan.group_by}別の{plan.target or '件数'}の構成比: {listed}{_conditions(plan, language)}。"
    listed = ", ".join(f"{k} {p:.1f}% ({_n(v)})" for k, v, p in shown)
    return f"Share of {plan.target or 'rows'} by {plan.group_by}: {listed}{_conditions(plan, language)}."


def _ratio(plan: Plan, result: dict[str, Any], language: Language) -> str:
    ratio, value = plan.ratio, result.get("value")
    if ratio is None or value is None or (isinstance(value, float) and math.isnan(value)):
        return "該当するデータがありません。" if language == "ja" else "No rows match."
    what = f"{plan.target}の{_stat_word(plan, language)}" if plan.target and language == "ja" else (plan.target or "")
    if language == "en":
        what = f"the {_stat_word(plan, language)} of {plan.target}" if plan.target else "rows"
    part, base = _n(result.get("part")), _n(result.get("base"))
    if ratio.kind == "share":
        if language == "ja":
            subject = what or "件数"
            conditions = _conditions(plan, language)
            return f"{ratio.part_label} は{subject}全体の {value:.1f}% です（{part} / {base}）{conditions}。"
        return f"{ratio.part_label} is {value:.1f}% of {what} ({part} of {base}){_conditions(plan, language)}."
    if language == "ja":
        subject = what or "件数"
        word = "増加" if value > 0 else "減少"
        return (
            f"{subject}は {ratio.base_label} の {base} から {ratio.part_label} の {part} へ {value:+.1f}%"
            f"（{word}）です{_conditions(plan, language)}。"
        )
    word = "an increase" if value > 0 else "a decrease"
    return (
        f"{what[:1].upper() + what[1:]} went from {base} ({ratio.base_label}) to {part} ({ratio.part_label}): "
        f"{value:+.1f}%, {word}{_conditions(plan, language)}."
    )


def _growth(plan: Plan, result: dict[str, Any], language: Language) -> str:
    (first_label, first_value), (second_label, second_value) = result["periods"][:2]
    rate = result.get("rate")
    stat = _stat_word(plan, language)
    if language == "ja":
        text = (
            f"{plan.target}の{stat}は {first_label} の {_n(first_value)} から {second_label} の {_n(second_value)} へ"
            f" {_n(result['change'])} 変化しました"
        )
        change = result["change"]  # the sign and the word say the same thing
        word = "減少" if change < 0 else "増加" if change > 0 else "変化なし"
        return text + (f"（{rate:+.1f}%、{word}）。" if rate is not None else f"（{word}）。")
    text = (
        f"The {stat} of {plan.target} went from {_n(first_value)} in {first_label} to {_n(second_value)} in "
        f"{second_label}, a change of {_n(result['change'])}"
    )
    change = result["change"]
    word = "a decrease" if change < 0 else "an increase" if change > 0 else "no change"
    return text + (f" ({rate:+.1f}%, {word})." if rate is not None else f" ({word}).")


def _distinct(plan: Plan, result: dict[str, Any], language: Language) -> str:
    values = [k for k, _ in result.get("top", [])[:10]]
    if language == "ja":
        return f"{plan.target} は {_n(result['value'])} 種類です{_conditions(plan, language)}（{'、'.join(values)}）。"
    return f"{plan.target} has {_n(result['value'])} distinct values{_conditions(plan, language)}: {', '.join(values)}."


def _missing(plan: Plan, result: dict[str, Any], language: Language) -> str:
    columns = [row for row in result.get("columns", []) if row[1] > 0]
    if not columns:
        return "欠損値はありません。" if language == "ja" else "There are no missing values."
    if language == "ja":
        listed = "、".join(f"{k} が {_n(v)} 件（{p:.2f}%）" for k, v, p in columns[:8])
        return f"欠損値は合計 {_n(result['total'])} 件です: {listed}。"
    listed = ", ".join(f"{k}: {_n(v)} ({p:.2f}%)" for k, v, p in columns[:8])
    return f"There are {_n(result['total'])} missing values: {listed}."


def _strength(r: float, language: Language) -> str:
    size = abs(r)
    if language == "ja":
        level = "強い" if size >= 0.7 else "中程度の" if size >= 0.4 else "弱い" if size >= 0.2 else "ほとんどない"
        if level == "ほとんどない":
            return "相関はほとんどありません"
        return f"{level}{'正' if r > 0 else '負'}の相関があります"
    level = "strong" if size >= 0.7 else "moderate" if size >= 0.4 else "weak" if size >= 0.2 else ""
    if not level:
        return "there is almost no correlation"
    return f"there is a {level} {'positive' if r > 0 else 'negative'} correlation"


def _correlation(plan: Plan, result: dict[str, Any], language: Language) -> str:
    a, b = result["columns"]
    r = float(result["r"])
    if plan.options.get("method") == "spearman":  # asked for the rank correlation: that is the answer
        rho = float(result["spearman"])
        if language == "ja":
            return (
                f"{a} と {b} のスピアマンの順位相関係数は {rho:.3f} で、{_strength(rho, language)}"
                f"（n = {_n(result['n'])}。ピアソンの r は {r:.3f}）。"
            )
        return (
            f"The Spearman rank correlation of {a} and {b} is {rho:.3f}: {_strength(rho, language)} "
            f"(n = {_n(result['n'])}; Pearson r = {r:.3f})."
        )
    if language == "ja":
        return (
            f"{a} と {b} の相関係数（ピアソン）は {r:.3f} で、{_strength(r, language)}"
            f"（p = {result['p']:.3g}、n = {_n(result['n'])}）。{_together(a, b, r, language)}"
        )
    evidence = f"p = {result['p']:.3g}, n = {_n(result['n'])}"
    return (
        f"The Pearson correlation of {a} and {b} is {r:.3f}: {_strength(r, language)} ({evidence})."
        f"{_together(a, b, r, language)}"
    )


def _together(a: str, b: str, r: float, language: Language) -> str:
    """How one measure moves as the other grows, said in words (only when the correlation is not negligible)."""
    if abs(r) < 0.1:
        return ""
    if language == "ja":
        return f"{a} が大きいほど {b} は{'増加' if r > 0 else '減少'}する傾向です。"
    return f" As {a} grows, {b} tends to {'increase' if r > 0 else 'decrease'}."


def _correlation_matrix(plan: Plan, result: dict[str, Any], language: Language) -> str:
    pairs = result.get("pairs") or []
    if not pairs:
        return (
            "相関を計算できる数値列が2つ以上ありません。"
            if language == "ja"
            else "There are not two numeric columns to correlate."
        )
    a, b, r = pairs[0]
    if language == "ja":
        listed = "、".join(f"{x}×{y}（{v:.2f}）" for x, y, v in pairs[:3])
        return f"最も相関が強いのは {a} と {b}（r = {r:.3f}）です。相関の強い組み合わせ: {listed}。"
    listed = ", ".join(f"{x}×{y} ({v:.2f})" for x, y, v in pairs[:3])
    return f"The strongest correlation is between {a} and {b} (r = {r:.3f}). Strongest pairs: {listed}."


def _outliers(plan: Plan, result: dict[str, Any], language: Language) -> str:
    method = ("Zスコアの絶対値が" if language == "ja" else "|z| >") if result["method"] == "zscore" else "IQR"
    count, rows = _n(result["count"]), _n(result["rows"])
    bounds = (
        f"{_n(result['lower'])}〜{_n(result['upper'])}"
        if language == "ja"
        else f"{_n(result['lower'])} to {_n(result['upper'])}"
    )
    if language == "ja":
        rule = (
            f"{method} {result['threshold']} を超える値"
            if result["method"] == "zscore"
            else f"IQR の {result['threshold']} 倍を超えて外れる値"
        )
        return f"{plan.target} の外れ値（{rule}）は {rows} 件中 {count} 件です。正常範囲は {bounds} です。"
    rule = f"{method} {result['threshold']}" if result["method"] == "zscore" else f"beyond {result['threshold']} × IQR"
    return f"{plan.target} has {count} outliers ({rule}) among {rows} values; the normal range is {bounds}."


def _distribution(plan: Plan, result: dict[str, Any], language: Language) -> str:
    if result.get("kind") == "category":
        top = result["values"][:3]
        if language == "ja":
            return f"{plan.target} の分布: " + "、".join(f"{k}（{_n(v)}）" for k, v in top) + " が多い順です。"
        return f"Distribution of {plan.target}: most frequent " + ", ".join(f"{k} ({_n(v)})" for k, v in top) + "."
    summary = result["summary"]
    skew = result.get("skew", 0.0)
    if language == "ja":
        shape = "右に裾が長い" if skew > 0.5 else "左に裾が長い" if skew < -0.5 else "おおむね左右対称な"
        return (
            f"{plan.target} は平均 {_n(summary['mean'])}、中央値 {_n(summary['50%'])}、範囲 {_n(summary['min'])}〜"
            f"{_n(summary['max'])} の{shape}分布です（歪度 {skew:.2f}）。"
        )
    shape = "right-skewed" if skew > 0.5 else "left-skewed" if skew < -0.5 else "roughly symmetric"
    return (
        f"{plan.target} has mean {_n(summary['mean'])}, median {_n(summary['50%'])} and range {_n(summary['min'])} to "
        f"{_n(summary['max'])}; the distribution is {shape} (skewness {skew:.2f})."
    )


def _describe(plan: Plan, result: dict[str, Any], language: Language) -> str:
    if result.get("column"):
        summary = result.get("summary", {})
        shown = ", ".join(f"{k}: {v}" for k, v in list(summary.items())[:8])
        return (
            f"{result['column']} の要約: {shown}。" if language == "ja" else f"Summary of {result['column']}: {shown}."
        )
    dates = result.get("dates") or {}
    span = (
        "".join(f"、期間 {v[0][:10]}〜{v[1][:10]}" for v in list(dates.values())[:1])
        if language == "ja"
        else "".join(f", from {v[0][:10]} to {v[1][:10]}" for v in list(dates.values())[:1])
    )
    if language == "ja":
        return (
            f"データは {_n(result['rows'])} 行 × {result['columns']} 列{span}、"
            f"欠損値は {_n(result['missing'])} 件です。"
            f"数値列: {'、'.join(result.get('numeric', {}))}。"
        )
    return (
        f"The data has {_n(result['rows'])} rows × {result['columns']} columns{span}, with {_n(result['missing'])} "
        f"missing values. Numeric columns: {', '.join(result.get('numeric', {}))}."
    )


CONCLUSIONS = {
    "ratio": _ratio,
    "stat": _stat,
    "count": _count,
    "group": _group,
    "top": _group,
    "trend": _trend,
    "share": _share,
    "growth": _growth,
    "distinct": _distinct,
    "missing": _missing,
    "correlation": _correlation,
    "correlation_matrix": _correlation_matrix,
    "outliers": _outliers,
    "distribution": _distribution,
    "describe": _describe,
}


# --- evidence ------------------------------------------------------------------------------


def _method(plan: Plan, result: dict[str, Any], language: Language) -> str:
    rows = result.get("rows")
    if language == "ja":
        text = f"**計算内容**: {describe(plan)}。"
        if isinstance(rows, int):
            text += f" 対象 {rows:,} 行。"
        return text + " 数値はすべてサンドボックスで実行したコードの出力です。"
    text = f"**What was computed**: {describe(plan)}."
    if isinstance(rows, int):
        text += f" {rows:,} rows used."
    return text + " Every number comes from the code executed in the sandbox."


def _table(plan: Plan, result: dict[str, Any]) -> list[dict[str, Any]] | None:
    ja = plan.language == "ja"
    if "values" in result and plan.task in ("group", "top", "trend", "share"):
        key = str(plan.group_by) if plan.task != "trend" else ("期間" if ja else "period")
        value = (
            f"{plan.target or ('件数' if ja else 'rows')}（{_stat_word(plan, plan.language)}）"
            if ja
            else f"{_stat_word(plan, plan.language)} of {plan.target or 'rows'}"
        )
        rows = result["values"][: plan.top_n or 50]
        if plan.task == "share":
            return [{key: k, value: v, "構成比(%)" if ja else "share (%)": round(p, 2)} for k, v, p in rows]
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


SUGGESTIONS: dict[Language, dict[str, list[str]]] = {
    "ja": {
        "stat": ["グループ別（地域・店舗など）に分けて比較する", "月別の推移を見る"],
        "group": ["上位グループの月別推移を比較する", "構成比（シェア）を確認する"],
        "top": ["上位と下位の差の要因を商品カテゴリ別に分解する", "月別の推移で順位の変化を見る"],
        "trend": ["前年同期や前月と比較する", "グループ別に推移を分けて見る"],
        "share": ["構成比の月別の変化を見る", "上位グループを商品別に分解する"],
        "growth": ["増減に寄与したグループを特定する", "月別の推移で変化の時期を確認する"],
        "correlation": ["散布図で外れ値を確認する", "グループ別に相関を比べる"],
        "outliers": ["外れ値の行の内容を確認する", "外れ値を除いた統計量と比較する"],
        "missing": ["欠損の多い列の補完方法を検討する"],
        "distribution": ["グループ別に分布を比較する"],
        "tools": [
            "このデータで合計や平均を計算する",
            "グループ別に集計してグラフにする",
            "スナップショットとして保存する",
        ],
    },
    "en": {
        "stat": ["Compare the figure by group (region, store…)", "Look at the monthly trend"],
        "group": ["Compare the monthly trend of the leading groups", "Check each group's share of the total"],
        "top": ["Break the leaders down by category", "Check how the ranking changes month by month"],
        "trend": ["Compare with the same period a year earlier", "Split the trend by group"],
        "share": ["Follow the shares month by month", "Break the largest group down further"],
        "growth": [
            "Find the groups that drove the change",
            "Locate when the change happened in the monthly trend",
        ],
        "correlation": ["Check the scatter plot for outliers", "Compare the correlation across groups"],
        "outliers": ["Inspect the outlying rows", "Compare statistics with and without the outliers"],
        "missing": ["Decide how to fill the columns with many gaps"],
        "distribution": ["Compare the distribution across groups"],
        "tools": ["Compute totals or means on this data", "Aggregate it by group as a chart", "Save it as a snapshot"],
    },
}


# --- data steps ----------------------------------------------------------------------------


def tool_report(tools: list[ExecutionRecord], data_state: str | None, language: Language) -> ReportOutput:
    """The report of a request that changed the data: what each step did, and the data now."""
    done = [record for record in tools if record.success]
    failed = [record for record in tools if not record.success]
    japanese = language == "ja"
    parts = [record.stdout.splitlines()[0] for record in done if record.stdout]
    if failed:
        problem = (failed[-1].error or "").removeprefix("ToolRetry: ")
        parts.append(
            f"実行できなかった操作があります: {problem}" if japanese else f"One step could not be applied: {problem}"
        )
    state = (data_state or "").split(": ", 1)[0]  # the steps behind it are already listed above
    if state and state not in " ".join(parts):
        parts.append(f"現在のデータ: {state}。" if japanese else f"Active data: {state}.")
    sections = [_steps_section(tools, language)]
    preview = next((record for record in reversed(done) if "\n" in record.stdout), None)
    if preview is not None:
        heading = "データの先頭" if japanese else "First rows"
        rows = preview.stdout.split("\n", 1)[1]
        sections.append(ReportSection(section_type="text", content=f"**{heading}**\n\n```\n{rows[:3000]}\n```"))
    title = "データを変更しました" if japanese else "The data was changed"
    if not done:
        title = "データを変更できませんでした" if japanese else "The data could not be changed"
    return ReportOutput(
        title=title,
        conclusion=" ".join(parts) or title,
        sections=sections,
        language=language,
        suggestions=SUGGESTIONS[language].get("tools"),
    )


def with_tool_steps(report: ReportOutput, tools: list[ExecutionRecord]) -> ReportOutput:
    """The report with the data steps of this turn listed first among the evidence."""
    return report.model_copy(update={"sections": [_steps_section(tools, report.language), *report.sections]})


def _steps_section(tools: list[ExecutionRecord], language: Language) -> ReportSection:
    heading = "データへの操作" if language == "ja" else "Steps applied to the data"
    lines = []
    for record in tools:
        mark = "✓" if record.success else "✗"
        said = record.stdout.splitlines()[0] if record.success and record.stdout else (record.error or "")
        lines.append(f"- {mark} `{record.code}` — {said}")
    return ReportSection(section_type="text", content=f"**{heading}**\n\n" + "\n".join(lines))

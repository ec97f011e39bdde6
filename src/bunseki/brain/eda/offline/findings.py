"""A step's finding, every number read from the ``BUNSEKI_RESULT`` line its code printed.

Nothing here looks at the data or the profile: a finding can only say what the executed code
reported. A failed step, or one that printed no result line, gives a finding that says so.
"""

from __future__ import annotations

from collections.abc import Callable

from bunseki.brain.eda.offline.plan import RULE_NAMES
from bunseki.brain.results import Result, result_of
from bunseki.domain import Finding, Language, PlanStep, StepOutcome

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".svg", ".gif", ".webp")
STRONG_SKEW = 2.0  # a skewness from which the mean misleads as a typical value
DISAGREEMENT = 0.3  # Pearson and Spearman this far apart: a few extreme values decide one of them
ERROR_CHARS = 200


def number(value: object) -> str:
    """12,345 for whole numbers, 1,234.57 otherwise, — when missing."""
    if not isinstance(value, int | float) or isinstance(value, bool):
        return "—"
    if float(value).is_integer() and abs(value) < 1e15:
        return f"{int(value):,}"
    return f"{value:,.2f}"


def coefficient(value: object) -> str:
    return f"{value:.2f}" if isinstance(value, int | float) else "—"


def percent(value: object) -> str:
    return f"{value:.1f}%" if isinstance(value, int | float) else "—"


def find(step: PlanStep, outcome: StepOutcome, language: Language) -> Finding:
    ja = language == "ja"
    images = [path for path in outcome.artifacts if path.lower().endswith(IMAGE_SUFFIXES)]
    if not outcome.success:
        reason = (outcome.error or outcome.stderr or "").strip().splitlines()
        last = reason[-1][:ERROR_CHARS] if reason else ("原因不明" if ja else "no error message")
        text = (
            f"このステップのコードは {outcome.attempts} 回実行しましたが失敗しました（{last}）。結果はありません。"
            if ja
            else f"The step's code failed after {outcome.attempts} attempt(s) ({last}); it has no results."
        )
        return Finding(step_id=step.id, title=step.title, text=text, artifacts=images, success=False)
    result = result_of(outcome.stdout)
    if result is None:
        text = (
            "コードは実行されましたが、結果の行（BUNSEKI_RESULT）が出力されなかったため数値を読めませんでした。"
            if ja
            else "The code ran but printed no BUNSEKI_RESULT line, so no numbers could be read from it."
        )
        return Finding(step_id=step.id, title=step.title, text=text, artifacts=images, success=False)
    writer = WRITERS.get(str(result.get("mode")), _overview)
    return Finding(step_id=step.id, title=step.title, text=writer(result, ja), artifacts=images)


def _missing(r: Result, ja: bool) -> str:
    columns = [c for c in r.get("columns", []) if c.get("missing")]
    rows, incomplete = number(r.get("rows")), number(r.get("rows_with_missing"))
    if not columns:
        return f"欠損値はありません（{rows}行）。" if ja else f"There are no missing values ({rows} rows)."
    top = columns[0]
    if ja:
        return (
            f"欠損が最も多いのは {top['column']} 列で {percent(top['pct'])}（{number(top['missing'])}件）。"
            f"欠損のある列は {len(columns)} 列、欠損を含む行は全 {rows} 行中 {incomplete} 行です。"
        )
    return (
        f"{top['column']} has the most missing values: {percent(top['pct'])} ({number(top['missing'])} rows). "
        f"{len(columns)} column(s) have gaps; {incomplete} of {rows} rows miss at least one value."
    )


def _distribution(r: Result, ja: bool) -> str:
    columns = [c for c in r.get("columns", []) if c.get("count")]
    if not columns:
        return "数値として読める値がありませんでした。" if ja else "No values could be read as numbers."
    parts = []
    for c in columns[:4]:
        low, high = number(c["min"]), number(c["max"])
        parts.append(
            f"{c['column']}: 平均 {number(c['mean'])}、中央値 {number(c['median'])}、標準偏差 {number(c['std'])}、"
            f"範囲 {low}〜{high}"
            if ja
            else f"{c['column']}: mean {number(c['mean'])}, median {number(c['median'])}, "
            f"std {number(c['std'])}, range {low} to {high}"
        )
    skewed = max(columns, key=lambda c: abs(c.get("skew") or 0))
    tail = (
        f"最も歪んでいるのは {skewed['column']}（歪度 {coefficient(skewed['skew'])}）です。"
        if ja
        else f"The most skewed is {skewed['column']} (skewness {coefficient(skewed['skew'])})."
    )
    for c in [c for c in columns if abs(c.get("skew") or 0) >= STRONG_SKEW][:3]:  # which of mean and median to read
        shown = (
            ("分布は対数軸で示しました。" if ja else " Its histogram is drawn on a log scale.")
            if c.get("log_view")
            else ""
        )
        tail += (
            f"{c['column']} は強く歪んでいる（歪度 {coefficient(c['skew'])}）ため、平均 {number(c['mean'])} は"
            f"少数の極端な値に引っ張られています。典型的な値としては中央値 {number(c['median'])} を"
            f"読んでください。{shown}"
            if ja
            else f" {c['column']} is strongly skewed (skewness {coefficient(c['skew'])}): its mean {number(c['mean'])} "
            f"is pulled by a few extreme values, so read the median {number(c['median'])} as the typical value.{shown}"
        )
    return ("。".join(parts) + "。" if ja else ". ".join(parts) + ". ") + tail


def _frequency(r: Result, ja: bool) -> str:
    parts = []
    for c in r.get("columns", [])[:4]:
        if not c.get("top"):
            continue
        value, count, share = c["top"][0]
        parts.append(
            f"{c['column']} は {number(c['distinct'])} 種類で、"
            f"最多は「{value}」の {number(count)}件（{percent(share)}）"
            if ja
            else f"{c['column']} has {number(c['distinct'])} values; the most frequent is {value!r} with "
            f"{number(count)} rows ({percent(share)})"
        )
    if not parts:
        return "値のあるカテゴリ列がありませんでした。" if ja else "No categorical column had values."
    return "。".join(parts) + "。" if ja else "; ".join(parts) + "."


def _breakdown(r: Result, ja: bool) -> str:
    values = r.get("values", [])
    if not values:
        return "集計できる行がありませんでした。" if ja else "No rows could be aggregated."
    top, bottom = values[0], values[-1]
    by, measure = r["by"], r["measure"]
    if ja:
        return (
            f"{by}別の{measure}の平均は「{top['group']}」が最大で {number(top['mean'])}（{number(top['count'])}件、"
            f"合計 {number(top['sum'])}）、最小は「{bottom['group']}」の {number(bottom['mean'])} です"
            f"（{number(r['groups'])} グループ、全体の合計 {number(r['total'])}）。"
        )
    return (
        f"The mean {measure} by {by} is highest for {top['group']!r} at {number(top['mean'])} "
        f"({number(top['count'])} rows, total {number(top['sum'])}) and lowest for {bottom['group']!r} at "
        f"{number(bottom['mean'])} ({number(r['groups'])} groups, overall total {number(r['total'])})."
    )


def _correlation(r: Result, ja: bool) -> str:
    pairs = r.get("pairs", [])
    if not pairs:
        return (
            "相関を計算できる数値列の組がありませんでした。"
            if ja
            else "No pair of numeric columns could be correlated."
        )
    p = pairs[0]
    strong = sum(1 for item in pairs if abs(item["pearson"]) >= 0.5)
    apart = [q for q in pairs if q.get("spearman") is not None and abs(q["pearson"] - q["spearman"]) >= DISAGREEMENT]
    if ja:
        text = (
            f"最も強い相関は {p['a']} と {p['b']} で、ピアソン {coefficient(p['pearson'])}、"
            f"スピアマン {coefficient(p['spearman'])}（{number(p['n'])}件）。"
            f"|r| ≥ 0.5 の組は {len(pairs)} 組中 {strong} 組です。"
        )
    else:
        text = (
            f"The strongest correlation is between {p['a']} and {p['b']}: Pearson {coefficient(p['pearson'])}, "
            f"Spearman {coefficient(p['spearman'])} ({number(p['n'])} rows). "
            f"{strong} of {len(pairs)} pairs have |r| ≥ 0.5."
        )
    for q in sorted(apart, key=lambda q: -abs(q["pearson"] - q["spearman"]))[:2]:
        ranks_stronger = abs(q["spearman"]) > abs(q["pearson"])
        if ja:
            why = (
                "順位で見ると強い単調な関係があります。ピアソンは極端な値（外れ値のステップを参照）や直線からのずれに"
                "引きずられて弱く出ているため、"
                if ranks_stronger
                else "ピアソンの相関は少数の極端な値（外れ値のステップを参照）によるものとみられます。"
                "順位で見た関係は弱いため、"
            )
            text += (
                f"{q['a']} と {q['b']} はピアソン {coefficient(q['pearson'])} と"
                f"スピアマン {coefficient(q['spearman'])} が食い違い、{why}スピアマンを信頼してください。"
            )
        else:
            text += (
                f" For {q['a']} and {q['b']}, Pearson {coefficient(q['pearson'])} and Spearman "
                f"{coefficient(q['spearman'])} disagree: "
                + (
                    "ranked, the relation is strongly monotone, and Pearson reads it weaker because it weighs extreme "
                    "values (see the outliers step) and departures from a straight line; believe Spearman."
                    if ranks_stronger
                    else "a few extreme values (see the outliers step) appear to make most of Pearson's correlation, "
                    "while the ranks relate weakly; believe Spearman."
                )
            )
    return text


def _outliers(r: Result, ja: bool) -> str:
    columns = r.get("columns", [])
    flagged = [c for c in columns if c.get("outliers")]
    if not flagged:
        return "1.5×IQR を超える外れ値はありませんでした。" if ja else "No values lie beyond 1.5×IQR."
    parts = []
    for c in flagged[:4]:
        low, high = number(c["low"]), number(c["high"])
        parts.append(
            f"{c['column']} は {number(c['outliers'])}件（{percent(c['pct'])}）が {low}〜{high} の範囲外"
            if ja
            else f"{c['column']}: {number(c['outliers'])} values ({percent(c['pct'])}) outside {low} to {high}"
        )
        if c.get("examples"):
            parts[-1] += (
                f"（最も極端な値 {number(c['examples'][0])}）" if ja else f" (most extreme {number(c['examples'][0])})"
            )
        if c.get("mean") is not None and c.get("mean_without") is not None:  # the statistic with and without them
            parts[-1] += (
                f"。平均は {number(c['mean'])}、外れ値を除くと {number(c['mean_without'])}"
                if ja
                else f", mean {number(c['mean'])} ({number(c['mean_without'])} without them)"
            )
    return "。".join(parts) + "。" if ja else "; ".join(parts) + "."


def _trend(r: Result, ja: bool) -> str:
    if not r.get("periods"):
        return "日付として読める値がありませんでした。" if ja else "No values could be read as dates."
    language: Language = "ja" if ja else "en"
    unit = RULE_NAMES[language].get(str(r.get("rule")), str(r.get("rule")))
    stat = {"sum": "合計", "mean": "平均"}.get(str(r.get("stat")), "") if ja else str(r.get("stat"))
    what = (
        (f"{r['measure']}の{stat}" if r.get("measure") else "件数")
        if ja
        else (f"{stat} of {r['measure']}" if r.get("measure") else "row count")
    )
    (first, a), (last, b) = r["first"], r["last"]
    (high_at, high), (low_at, low) = r["max"], r["min"]
    change = r.get("change_pct")
    partial = r.get("partial") or []
    if ja:
        moved = f"（{change:+.1f}%）" if isinstance(change, int | float) else ""
        note = "".join(
            f"{label} はその{unit}の {share * 100:.0f}% の期間しかデータがない一部の期間のため、"
            "変化と最大・最小の比較から除きました。"
            for label, share in partial
        )
        return (
            f"{what}（{unit}単位、{number(r['periods'])}期間）は {first} の {number(a)} から {last} の {number(b)} へ"
            f"{moved}。最大は {high_at} の {number(high)}、最小は {low_at} の {number(low)} です。{note}"
        )
    moved = f" ({change:+.1f}%)" if isinstance(change, int | float) else ""
    note = "".join(
        f" {label} is a partial period (the data cover {share * 100:.0f}% of it), so it is left out of the change "
        "and of the highest and lowest."
        for label, share in partial
    )
    return (
        f"The {what} ({unit}, {number(r['periods'])} periods) went from {number(a)} in {first} to {number(b)} "
        f"in {last}{moved}. The highest was {number(high)} in {high_at}, the lowest {number(low)} in {low_at}.{note}"
    )


def _target(r: Result, ja: bool) -> str:
    target, parts = r["target"], []
    numeric, groups = r.get("numeric", []), r.get("categorical", [])
    if numeric:
        n = numeric[0]
        parts.append(
            f"{target} と最も相関が強いのは {n['column']}（ピアソン {coefficient(n['pearson'])}、"
            f"スピアマン {coefficient(n['spearman'])}、{number(n['n'])}件）"
            if ja
            else f"{n['column']} correlates most with {target} (Pearson {coefficient(n['pearson'])}, "
            f"Spearman {coefficient(n['spearman'])}, {number(n['n'])} rows)"
        )
    for g in groups[:2]:
        (top, high), (bottom, low) = g["top"], g["bottom"]
        if r.get("target_numeric"):
            parts.append(
                f"{g['column']}別の{target}の平均は「{top}」が {number(high)} で最大、"
                f"「{bottom}」が {number(low)} で最小"
                if ja
                else f"by {g['column']}, the mean {target} is highest for {top!r} ({number(high)}) and lowest for "
                f"{bottom!r} ({number(low)})"
            )
        else:
            parts.append(
                f"{g['column']} の平均は {target}=「{top}」で {number(high)} と最大、"
                f"「{bottom}」で {number(low)} と最小"
                if ja
                else f"the mean {g['column']} is highest where {target} is {top!r} ({number(high)}) and lowest "
                f"for {bottom!r} ({number(low)})"
            )
    if not parts:
        return (
            f"{target} との関係を計算できる列がありませんでした。" if ja else f"No column could be related to {target}."
        )
    if ja:
        return "。".join(parts) + "。"
    text = "; ".join(parts)
    return text[0].upper() + text[1:] + "."


def _pair(r: Result, ja: bool) -> str:
    return (
        f"{r['a']} と {r['b']} の相関はピアソン {coefficient(r['pearson'])}、"
        f"スピアマン {coefficient(r['spearman'])}（{number(r['n'])}件）です。"
        if ja
        else f"{r['a']} and {r['b']} correlate with Pearson {coefficient(r['pearson'])} and Spearman "
        f"{coefficient(r['spearman'])} ({number(r['n'])} rows)."
    )


def _crosstab(r: Result, ja: bool) -> str:
    if not r.get("cells"):
        return "組み合わせを数えられる行がありませんでした。" if ja else "No rows had both values."
    a, b, count = r["cells"][0]
    return (
        f"{r['a']}×{r['b']} で最も多い組み合わせは「{a}」×「{b}」の {number(count)}件です（全 {number(r['rows'])}件）。"
        if ja
        else f"The most common combination of {r['a']} and {r['b']} is {a!r} × {b!r} with {number(count)} of "
        f"{number(r['rows'])} rows."
    )


def _overview(r: Result, ja: bool) -> str:
    columns = r.get("columns", [])
    listed = ", ".join(f"{c['column']} ({number(c['distinct'])})" for c in columns[:6])
    return (
        f"{number(r.get('rows'))}行、{len(columns)}列。列ごとの種類数: {listed}。"
        if ja
        else f"{number(r.get('rows'))} rows, {len(columns)} columns. Distinct values: {listed}."
    )


WRITERS: dict[str, Callable[[Result, bool], str]] = {
    "missing": _missing,
    "distribution": _distribution,
    "frequency": _frequency,
    "breakdown": _breakdown,
    "correlation": _correlation,
    "outliers": _outliers,
    "trend": _trend,
    "target": _target,
    "pair": _pair,
    "crosstab": _crosstab,
    "overview": _overview,
}

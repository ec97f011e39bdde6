"""The first plan for a table: which EDA steps this profile and goal call for, in a sensible order.

Missing values (only when there are some), numeric distributions, category frequencies and a key
measure by category, a trend when there is a date column, correlations (two or more numeric
columns), outliers (when the profile counts some), and how the other columns relate to the
column the goal names. Identifier columns are left out everywhere.
"""

from __future__ import annotations

from datetime import datetime

from bunseki.brain.eda.contract import EdaView
from bunseki.brain.eda.offline.columns import MAX_LISTED, Kinds, goal_target, key_measure
from bunseki.data.profile import TableProfile
from bunseki.domain import Language, PlanStep, StepKind

MAX_STEPS = 8
MAX_BARS = 30  # categories compared in one breakdown
RULES = ("h", "D", "W-MON", "MS", "QS", "YS")
RULE_DAYS = {"h": 1 / 24, "D": 1, "W-MON": 7, "MS": 30.4, "QS": 91.3, "YS": 365.25}
MAX_PERIODS = 60
RULE_NAMES = {
    "ja": {"h": "時間", "D": "日", "W-MON": "週", "MS": "月", "QS": "四半期", "YS": "年"},
    "en": {"h": "hourly", "D": "daily", "W-MON": "weekly", "MS": "monthly", "QS": "quarterly", "YS": "yearly"},
}


def step(kind: StepKind, columns: list[str], language: Language, profile: TableProfile) -> PlanStep:
    """A step of ``kind`` on ``columns`` with its title and rationale in ``language`` (id 0 until numbered)."""
    title, rationale = _texts(kind, columns, language, profile)
    return PlanStep(id=0, title=title, kind=kind, columns=columns, rationale=rationale)


def numbered(steps: list[PlanStep]) -> list[PlanStep]:
    return [item.model_copy(update={"id": number}) for number, item in enumerate(steps, 1)]


def first_plan(view: EdaView) -> list[PlanStep]:
    profile, language = view.profile, view.language
    kinds = Kinds.of(profile)
    target = goal_target(view.goal, profile)
    measure = key_measure(profile, target)
    steps: list[PlanStep] = []
    missing = [c.name for c in profile.columns if c.missing > 0]
    if missing:
        steps.append(step("missing", missing, language, profile))
    if target is not None:
        steps.append(target_step(target, language, profile))
    if kinds.numeric:
        steps.append(step("distribution", _distribution_columns(profile, kinds), language, profile))
    if kinds.categorical:
        steps.append(step("categorical", kinds.categorical[:4], language, profile))
        if measure is not None:
            steps.append(step("categorical", [_grouping(profile, kinds), measure], language, profile))
    if kinds.datetime:
        steps.append(step("trend", [kinds.datetime[0], *([measure] if measure else [])], language, profile))
    if len(kinds.numeric) >= 2:
        steps.append(step("correlation", kinds.numeric[:MAX_LISTED], language, profile))
    outlying = [c.name for c in profile.columns if c.kind == "numeric" and (c.outliers or 0) > 0]
    if outlying:
        steps.append(step("outliers", outlying[:MAX_LISTED], language, profile))
    if not steps:  # nothing but identifiers and free text: an overview is still worth having
        steps.append(step("custom", [c.name for c in profile.columns][:MAX_LISTED], language, profile))
    return numbered(steps[:MAX_STEPS])


def target_step(target: str, language: Language, profile: TableProfile) -> PlanStep:
    kinds = Kinds.of(profile)
    others = [n for n in kinds.numeric if n != target][:4] + [n for n in kinds.categorical if n != target][:3]
    return step("target", [target, *others], language, profile)


def _grouping(profile: TableProfile, kinds: Kinds) -> str:
    """The category to break the key measure down by: the first with 2–30 values, else the first."""
    fitting = [n for n in kinds.categorical if 2 <= _distinct(profile, n) <= MAX_BARS]
    return (fitting or kinds.categorical)[0]


def _distinct(profile: TableProfile, name: str) -> int:
    column = profile.column(name)
    return column.distinct if column else 0


def trend_rule(profile: TableProfile, date: str) -> str:
    """The pandas rule a trend aggregates at: the dates' own frequency, coarsened to ≤ 60 periods."""
    column = profile.column(date)
    rule = _base_rule(column.frequency if column else None)
    days = _span_days(column.min if column else None, column.max if column else None)
    at = RULES.index(rule)
    while at < len(RULES) - 1 and days / RULE_DAYS[RULES[at]] > MAX_PERIODS:
        at += 1
    return RULES[at]


def _base_rule(frequency: str | None) -> str:
    """pandas' frequency of the dates (D, W-SUN, MS, QE-DEC, h, min…) as one of `RULES`."""
    if not frequency:
        return "D"
    head = frequency.split("-")[0].lstrip("0123456789")
    if head.startswith("W"):
        return "W-MON"
    if head.startswith(("Q", "BQ")):
        return "QS"
    if head.startswith(("Y", "A", "BY", "BA")):
        return "YS"
    if head in ("M", "MS", "ME", "BM", "BMS", "BME", "SM", "SMS", "SME"):
        return "MS"
    if head in ("D", "B", "C"):
        return "D"
    return "h"


def _span_days(low: object, high: object) -> float:
    try:
        start, end = datetime.fromisoformat(str(low)), datetime.fromisoformat(str(high))
    except ValueError:
        return 0.0
    return (end - start).total_seconds() / 86400


def _texts(kind: StepKind, columns: list[str], language: Language, profile: TableProfile) -> tuple[str, str]:
    ja = language == "ja"
    listed = "、".join(columns) if ja else ", ".join(columns)
    kinds = Kinds.of(profile)
    if kind == "missing":
        return (
            ("欠損値の確認", f"{listed} に欠損があります。量と偏りを確かめ、以降の集計への影響を把握します。")
            if ja
            else ("Missing values", f"{listed} have missing values: how many, and whether they cluster.")
        )
    if kind == "distribution":
        return (
            ("数値列の分布", f"{listed} の中心・ばらつき・歪みをヒストグラムと要約統計で確認します。")
            if ja
            else ("Distributions of numeric columns", f"Centre, spread and skew of {listed}, with histograms.")
        )
    if kind == "categorical":
        measure = next((c for c in columns if c in kinds.numeric), None)
        group = next((c for c in columns if c != measure), None)
        if measure and group:
            return (
                (
                    f"{group}別の{measure}",
                    f"{group} ごとに {measure} の平均・合計を比べ、差の大きいグループを探します。",
                )
                if ja
                else (f"{measure} by {group}", f"Compare the mean and total of {measure} across {group}.")
            )
        return (
            ("カテゴリ列の度数", f"{listed} の値ごとの件数と構成比を確認します。")
            if ja
            else ("Category frequencies", f"Counts and shares of the values of {listed}.")
        )
    if kind == "correlation":
        return (
            ("数値列の相関", f"{listed} の間のピアソン・スピアマン相関を調べ、強い関係を探します。")
            if ja
            else ("Correlations between numeric columns", f"Pearson and Spearman correlations among {listed}.")
        )
    if kind == "outliers":
        return (
            ("外れ値の確認", f"{listed} で 1.5×IQR を超える値の数と値を確認します（プロファイルで外れ値あり）。")
            if ja
            else ("Outliers", f"Values beyond 1.5×IQR in {listed}, which the profile flags.")
        )
    if kind == "trend":
        date, measure = columns[0], (columns[1] if len(columns) > 1 else None)
        unit = RULE_NAMES[language][trend_rule(profile, date)]
        what = measure or ("件数" if ja else "rows")
        return (
            (f"{what}の推移（{unit}単位）", f"日付列 {date} を{unit}単位に集計し、{what}の時間変化を見ます。")
            if ja
            else (f"{what} over time ({unit})", f"{what} aggregated {unit} by {date}, to see how it changes.")
        )
    if kind == "target":
        target, others = columns[0], "、".join(columns[1:]) if ja else ", ".join(columns[1:])
        return (
            (
                f"{target}に関係する要因",
                f"目的の {target} と {others or '他の列'} の関係（相関・グループ差）を調べます。",
            )
            if ja
            else (f"What relates to {target}", f"How {others or 'the other columns'} relate to {target}, the goal.")
        )
    if len(columns) == 2:
        a, b = columns
        return (
            (f"{a}と{b}の関係", f"依頼により {a} と {b} の関係を調べます。")
            if ja
            else (f"{a} and {b}", f"As asked: how {a} and {b} relate.")
        )
    return (
        ("データの概要", f"{listed} の型・件数・値の種類を確認します。")
        if ja
        else ("Overview of the data", f"Types, counts and distinct values of {listed}.")
    )


STRONG_SKEW = 2.0  # a measure this skewed is looked at even when it is not among the first columns


def _distribution_columns(profile: TableProfile, kinds: Kinds) -> list[str]:
    """The first numeric columns, with the strongly skewed ones among them: a typical value read from
    a skewed column's mean misleads, so the report must see it."""
    chosen = kinds.numeric[:MAX_LISTED]
    skewed = [c.name for c in profile.columns if c.name in kinds.numeric and abs(c.skew or 0) >= STRONG_SKEW]
    added = [name for name in skewed if name not in chosen][: MAX_LISTED // 2]
    return chosen[: MAX_LISTED - len(added)] + added if added else chosen

"""The EDA report from the findings: a conclusion from their first sentences, a section per finding
with its charts, the validation problems, and a few suggestions for what to look at next."""

from __future__ import annotations

import re

from bunseki.brain.eda.contract import EdaView
from bunseki.brain.eda.offline.columns import Kinds, goal_target
from bunseki.domain import Finding, ReportOutput, ReportSection

CONCLUSION_FINDINGS = 3
MAX_SUGGESTIONS = 3
_SENTENCE = re.compile(r"(?<=。)|(?<=\.)\s+(?=[A-Z0-9])")


def first_sentence(text: str) -> str:
    return next((part.strip() for part in _SENTENCE.split(text) if part.strip()), text.strip())


def write(view: EdaView) -> ReportOutput:
    ja = view.language == "ja"
    done = [f for f in view.findings if f.success]
    failed = [f for f in view.findings if not f.success]
    title = f"{view.source} の探索的データ分析" if ja else f"Exploratory analysis of {view.source}"
    if view.goal:
        title += f"：{view.goal}" if ja else f": {view.goal}"
    if done:
        conclusion = " ".join(first_sentence(f.text) for f in done[:CONCLUSION_FINDINGS])
    else:
        conclusion = (
            "どのステップも結果を出せなかったため、結論はありません。"
            if ja
            else "No step produced results, so there is no conclusion."
        )
    if failed:
        ids = ", ".join(str(f.step_id) for f in failed)
        conclusion += f"（ステップ {ids} は失敗）" if ja else f" (step(s) {ids} failed)"
    sections = _sections(view, ja)
    return ReportOutput(
        title=title,
        conclusion=conclusion,
        sections=sections,
        suggestions=_suggestions(view, failed, ja) or None,
        language=view.language,
    )


def _sections(view: EdaView, ja: bool) -> list[ReportSection]:
    sections: list[ReportSection] = []
    if view.problems:
        heading = "**データ検証で見つかった問題**" if ja else "**Problems validation found**"
        listed = "\n".join(f"- {problem}" for problem in view.problems)
        sections.append(ReportSection(section_type="text", content=f"{heading}\n\n{listed}"))
    for finding in view.findings:
        sections.append(
            ReportSection(section_type="text", content=f"**{finding.step_id}. {finding.title}**\n\n{finding.text}")
        )
        sections += [
            ReportSection(section_type="image", content=path, description=finding.title) for path in finding.artifacts
        ]
    if not sections:
        nothing = "実行された分析ステップはありません。" if ja else "No analysis step ran."
        sections.append(ReportSection(section_type="text", content=nothing))
    return sections


def _suggestions(view: EdaView, failed: list[Finding], ja: bool) -> list[str]:
    kinds_done = {step.kind for step in view.plan}
    available = Kinds.of(view.profile)
    out: list[str] = []
    for finding in failed[:1]:
        out.append(
            f"失敗したステップ {finding.step_id}（{finding.title}）の列と型を確認して再実行する"
            if ja
            else f"Check the columns and types of failed step {finding.step_id} ({finding.title}) and run it again"
        )
    if "target" not in kinds_done and goal_target(view.goal, view.profile) is None and available.numeric:
        out.append(
            "目的の列（例: 「売上に影響する要因」）を指定して、その列と他の列の関係を調べる"
            if ja
            else "Name a target column in the goal (e.g. 'what drives sales') to relate the others to it"
        )
    if "correlation" in kinds_done and len(available.numeric) >= 2:
        out.append(
            "相関の強い組について、散布図や回帰で関係の形と交絡を確かめる"
            if ja
            else "For strongly correlated pairs, check the shape of the relation and confounders with a regression"
        )
    if "trend" in kinds_done:
        out.append(
            "推移を季節性・曜日効果に分けて見る" if ja else "Split the trend into seasonality and weekday effects"
        )
    if "categorical" in kinds_done and len(available.categorical) >= 2:
        out.append(
            "2つのカテゴリを組み合わせたクロス集計で差の源を絞り込む"
            if ja
            else "Cross-tabulate two categories to narrow down where differences come from"
        )
    return out[:MAX_SUGGESTIONS]

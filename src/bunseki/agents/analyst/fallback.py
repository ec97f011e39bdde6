"""A report built without the brain, from what was executed: used when the brain fails."""

from __future__ import annotations

from bunseki.brain.analyst.contract import AnalystView
from bunseki.domain import ReportOutput, ReportSection


def fallback_report(view: AnalystView, *, problem: str) -> ReportOutput:
    """The results so far, verbatim, with the reason the full report could not be written."""
    japanese = view.language == "ja"
    sections: list[ReportSection] = []
    for record in view.executions:
        if record.success:
            output = record.visible_stdout
            if output:
                sections.append(ReportSection(section_type="text", content=f"```\n{output}\n```"))
            sections += [
                ReportSection(section_type="image", content=path, description=record.instruction)
                for path in record.artifacts
                if path.lower().endswith((".png", ".jpg", ".jpeg", ".svg"))
            ]
    if not sections:
        empty = "実行結果はまだありません。" if japanese else "There are no results yet."
        sections.append(ReportSection(section_type="text", content=empty))
    if japanese:
        conclusion = f"レポートを完成できませんでした（{problem}）。ここまでの実行結果をそのまま示します。"
        title = "分析の途中結果"
    else:
        conclusion = f"The report could not be completed ({problem}). These are the results so far, as executed."
        title = "Intermediate results"
    return ReportOutput(
        title=title,
        conclusion=conclusion,
        sections=sections,
        assumptions=view.assumptions,
        language=view.language,
    )

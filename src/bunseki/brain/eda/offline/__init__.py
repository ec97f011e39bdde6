"""The offline EDA brain: a deterministic analyst for the EDA pipeline that needs no model.

It plans from the table's profile and the goal (``plan``), revises the plan from plain feedback
in Japanese or English (``feedback``), writes pandas and matplotlib code per step (``code``,
``templates``), reads each step's finding from the numbers its code printed (``findings``) and
writes the report from the findings (``report``).
"""

from __future__ import annotations

from bunseki.brain.eda.contract import EdaView, PlanRevision, StepCode
from bunseki.brain.eda.offline import code, feedback, findings, report
from bunseki.brain.eda.offline.plan import first_plan
from bunseki.domain import Finding, PlanStep, ReportOutput, StepOutcome

__all__ = ["OfflineEdaBrain"]


class OfflineEdaBrain:
    """`EdaBrain` answered by rules over the profile and the executed steps' output."""

    @property
    def name(self) -> str:
        return "offline"

    def plan(self, view: EdaView) -> PlanRevision:
        if view.feedback and view.feedback.strip():
            return feedback.revise(view)
        return PlanRevision(plan=list(view.plan) or first_plan(view))

    def write_step_code(self, view: EdaView, step: PlanStep, error: str | None = None) -> StepCode:
        return code.write(view, step, error)

    def find(self, view: EdaView, step: PlanStep, outcome: StepOutcome) -> Finding:
        return findings.find(step, outcome, view.language)

    def write_report(self, view: EdaView) -> ReportOutput:
        return report.write(view)

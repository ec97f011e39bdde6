"""`LLMEdaBrain`: the EDA pipeline's judgements as structured-output calls to a chat model."""

from __future__ import annotations

from bunseki.brain.eda import prompts
from bunseki.brain.eda.contract import EdaView, PlanRevision, StepCode
from bunseki.brain.grounding import UNGROUNDED, Objection, report_text, ungrounded
from bunseki.brain.structured import ChatModelBrain
from bunseki.domain import Finding, PlanStep, ReportOutput, StepOutcome


class LLMEdaBrain(ChatModelBrain):
    """Asks a chat model to plan, write each step's code, read its findings and write the report."""

    def plan(self, view: EdaView) -> PlanRevision:
        revision = self._ask(PlanRevision, prompts.plan_messages(view))
        steps = [s.model_copy(update={"id": number}) for number, s in enumerate(revision.plan, 1)]
        if view.feedback and not revision.understood and view.plan:
            steps = list(view.plan)  # not understood: the plan stays as it was, whatever the model sent
        return revision.model_copy(
            update={"plan": steps, "new_analyses": revision.new_analyses and view.review == "results"}
        )

    def write_step_code(self, view: EdaView, step: PlanStep, error: str | None = None) -> StepCode:
        return self._ask(StepCode, prompts.code_messages(view, step, error))

    def find(self, view: EdaView, step: PlanStep, outcome: StepOutcome) -> Finding:
        def grounded(finding: Finding) -> Objection | None:
            return ungrounded_finding_numbers(finding, view, outcome)

        finding = self._ask(Finding, prompts.finding_messages(view, step, outcome), check=grounded)
        # The outcome knows these for certain; the model's copy of them is not trusted.
        return finding.model_copy(
            update={
                "step_id": step.id,
                "artifacts": list(outcome.artifacts),
                "success": finding.success and outcome.success,
            }
        )

    def write_report(self, view: EdaView) -> ReportOutput:
        def grounded(report: ReportOutput) -> Objection | None:
            return ungrounded_eda_report_numbers(report, view)

        report = self._ask(ReportOutput, prompts.report_messages(view), check=grounded)
        return report.model_copy(update={"language": view.language})


def ungrounded_finding_numbers(finding: Finding, view: EdaView, outcome: StepOutcome) -> Objection | None:
    """A correction when an EDA finding states numbers its step's output does not show."""
    sources = [*eda_sources(view), outcome.stdout if outcome.success else ""]
    missing = ungrounded(f"{finding.title}\n{finding.text}", sources)
    if not missing:
        return None
    return Objection(
        f"The finding states numbers that the step's output does not show: {', '.join(missing[:10])}. "
        "Use only numbers as the code printed them.",
        UNGROUNDED,
    )


def ungrounded_eda_report_numbers(report: ReportOutput, view: EdaView) -> Objection | None:
    """A correction when the EDA report states numbers no step printed and the profile does not hold."""
    missing = ungrounded(report_text(report), [*eda_sources(view), *(f.text for f in view.findings if f.success)])
    if not missing:
        return None
    return Objection(
        f"The report states numbers that appear in no step's output, finding or the data profile: "
        f"{', '.join(missing[:10])}. Use only numbers printed by the executed code.",
        UNGROUNDED,
    )


def eda_sources(view: EdaView) -> list[str]:
    """Where EDA numbers may come from: the goal and feedback, the data's profile, what the steps printed."""
    sources = [view.goal or "", view.feedback or "", view.profile.model_dump_json(), *view.problems]
    return sources + [outcome.stdout for outcome in view.outcomes if outcome.success]

"""What the EDA pipeline asks a brain, and the brain's answers.

A plan's steps, what running their code gave and the findings are the run's own
(`bunseki.domain.eda`); the brain writes them, and the graph keeps them in its state.

The EDA graph plans, writes code per step, reads the results and writes the report; the brain
(offline rules or a chat model) makes each of those judgements from an `EdaView`. A brain
never runs code: the graph runs each step's code in the sandbox, on ``df`` loaded from the
validated Parquet file, and hands the brain what was printed and saved.
"""

from __future__ import annotations

from typing import Literal, Protocol, runtime_checkable

from pydantic import BaseModel, Field

from bunseki.domain import Finding, Language, PlanStep, ReportOutput, StepOutcome, TableProfile


class PlanRevision(BaseModel):
    """The brain's plan, first or revised after feedback.

    ``understood`` is False when feedback could not be applied; ``note`` then says so at the
    review (and the plan is returned unchanged) rather than guessing.
    """

    plan: list[PlanStep]
    understood: bool = True
    note: str | None = Field(default=None, description="What changed, or why the feedback could not be applied.")
    new_analyses: bool = Field(
        default=False, description="At the results review: the feedback asks for analyses the plan does not have."
    )


class StepCode(BaseModel):
    """Python for one plan step: runs with ``df`` (the validated table), pandas, matplotlib at hand."""

    code: str
    charts: list[str] = Field(default_factory=list, description="File names of the charts the code saves.")


class EdaView(BaseModel):
    """Everything a brain may look at for one EDA judgement; built by the graph from its state."""

    profile: TableProfile
    source: str = Field(description="The data file's name as the person gave it.")
    goal: str | None = None
    language: Language = "ja"
    problems: list[str] = Field(default_factory=list, description="What validation found, one line each.")
    plan: list[PlanStep] = Field(default_factory=list)
    feedback: str | None = Field(default=None, description="The person's latest review feedback, if any.")
    review: Literal["plan", "results"] | None = Field(default=None, description="The review the feedback came from.")
    outcomes: list[StepOutcome] = Field(default_factory=list)
    findings: list[Finding] = Field(default_factory=list)


@runtime_checkable
class EdaBrain(Protocol):
    """Judgement for the EDA pipeline: plan, code per step, findings, report."""

    @property
    def name(self) -> str: ...

    def plan(self, view: EdaView) -> PlanRevision:
        """``plan_analysis``: a first plan, or ``view.plan`` revised by ``view.feedback``."""
        ...

    def write_step_code(self, view: EdaView, step: PlanStep, error: str | None = None) -> StepCode:
        """``generate_code``: code for ``step``; ``error`` is the previous attempt's, when retrying."""
        ...

    def find(self, view: EdaView, step: PlanStep, outcome: StepOutcome) -> Finding:
        """``integrate_results``: what the step's output shows, numbers from the output only."""
        ...

    def write_report(self, view: EdaView) -> ReportOutput:
        """``generate_report``: the report from the findings (``view.findings``)."""
        ...

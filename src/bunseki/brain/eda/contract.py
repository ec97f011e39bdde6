"""What the EDA pipeline asks a brain, and the brain's answers.

The EDA graph plans, writes code per step, reads the results and writes the report; the brain
(offline rules or a chat model) makes each of those judgements from an `EdaView`. A brain
never runs code: the graph runs each step's code in the sandbox, on ``df`` loaded from the
validated Parquet file, and hands the brain what was printed and saved.
"""

from __future__ import annotations

from typing import Literal, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field

from bunseki.data.profile import TableProfile
from bunseki.domain import Language
from bunseki.report.models import ReportOutput

StepKind = Literal[
    "missing",  # missing values per column and their pattern
    "distribution",  # numeric distributions: histograms, skew, summary statistics
    "categorical",  # frequencies of categorical columns, or a measure broken down by a category
    "correlation",  # numeric correlations (Pearson and Spearman), a heatmap
    "outliers",  # values beyond 1.5×IQR, box plots
    "trend",  # a measure over time when there is a date column
    "target",  # how other columns relate to a target the goal names
    "custom",  # anything else a person asked for in feedback
]


class PlanStep(BaseModel):
    """One step of an analysis plan: id, title, kind, columns, rationale."""

    model_config = ConfigDict(frozen=True)

    id: int = Field(description="1, 2, 3 … in plan order; renumbered whenever the plan changes.")
    title: str
    kind: StepKind
    columns: list[str] = Field(default_factory=list, description="Columns of the table the step looks at.")
    rationale: str = Field(description="Why this step, for this table and goal.")


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


class StepOutcome(BaseModel):
    """What running one step's code gave: the brain reads findings from this."""

    model_config = ConfigDict(frozen=True)

    step_id: int
    code: str
    success: bool
    stdout: str = ""
    stderr: str = ""
    error: str | None = None
    artifacts: list[str] = Field(default_factory=list, description="Paths relative to the workspace.")
    attempts: int = 1


class Finding(BaseModel):
    """The findings of one step, every number taken from its execution output."""

    model_config = ConfigDict(frozen=True)

    step_id: int
    title: str
    text: str = Field(description="A few sentences; numbers only as printed by the step's code.")
    artifacts: list[str] = Field(default_factory=list)
    success: bool = True


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

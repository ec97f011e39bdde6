"""An EDA run: where it stands, its plan, what each step's code gave, the findings, the review it waits at.

`EdaRun` is a run as the store keeps it. The EDA service builds the two forms the interfaces show:
`EdaRunSummary` (a run in a list) and `EdaRunDetails` (a run in full: its stored row, its graph
state and the review it waits at). ``bunseki eda --format json`` prints `EdaRunDetails` and
``/api/v1/eda`` sends it (with files as URLs); their field names are a contract.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field

from bunseki.domain.forms import Entity, Omitted
from bunseki.domain.profiles import TableProfile
from bunseki.domain.usage import TurnUsage

EdaStatus = Literal["running", "awaiting_plan_review", "awaiting_results_review", "completed", "stopped", "error"]
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


class EdaReview(BaseModel):
    """The review a run waits at: which one, the planner's note, and whether feedback is still taken."""

    review: str = Field(description="plan or results")
    note: str | None = None
    feedback_allowed: bool = True
    failed_steps: list[int] = Field(default_factory=list)


class EdaRun(Entity):
    """One run of the EDA pipeline as it is kept: the data file's name, its workspace, where it
    stands, and what its model calls cost, summed over the calls that advanced it (``trace``: one
    trace for each). Its graph state lives in the checkpoints, under ``run_id``."""

    run_id: str
    status: EdaStatus
    source: str
    goal: str | None
    model: str
    created_at: AwareDatetime
    updated_at: AwareDatetime
    usage: TurnUsage | None = Field(
        default=None, description="What its model calls cost, summed over start and resumes; null if unknown."
    )
    user_id: str | None
    workspace: str
    error: str | None = None
    trace: list[dict[str, Any]] | None = None

    @property
    def id(self) -> str:
        """``run_id``, under the name every other stored model gives its key."""
        return self.run_id


class EdaRunSummary(EdaRun):
    """A run in a list."""

    user_id: Omitted = None
    workspace: Omitted = None
    error: Omitted = None
    trace: Omitted = None


class EdaRunDetails(EdaRun):
    """A run in full: where it stands, its plan, profile, results and report."""

    user_id: Omitted = None
    trace: Omitted = None
    review: EdaReview | None = None
    problems: list[str] = Field(default_factory=list, description="What validation found.")
    plan: list[PlanStep] = Field(default_factory=list)
    findings: list[Finding] = Field(default_factory=list)
    profile: TableProfile | None = None
    report_path: str | None = Field(default=None, description="The Markdown report, absolute.")
    report_markdown: str | None = None
    report_files: dict[str, str] = Field(default_factory=dict, description="md, html, ipynb: absolute paths.")
    artifacts: list[str] = Field(default_factory=list, description="Files the steps wrote, absolute.")
    executions: list[StepOutcome] = Field(default_factory=list)

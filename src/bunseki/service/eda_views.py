"""What the EDA service hands the interfaces: views of a run, never store records or graph state.

`EdaRunView` is the JSON contract of ``bunseki eda --format json`` and of ``/api/v1/eda``:
``status``, ``run_id``, ``plan``, ``findings``, ``profile``, ``report_path``,
``report_markdown``, ``artifacts``, ``executions``, ``error``, ``usage`` (what its model calls cost),
and what the pending review shows.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, Field

from bunseki.brain.eda.contract import Finding, PlanStep, StepOutcome
from bunseki.data.profile import TableProfile
from bunseki.store.records import EdaRunRecord, EdaStatus
from bunseki.usage import TurnUsage

if TYPE_CHECKING:
    from bunseki.agents.eda import EdaState


class EdaReview(BaseModel):
    """The review a run waits at: which one, the planner's note, and whether feedback is still taken."""

    review: str = Field(description="plan or results")
    note: str | None = None
    feedback_allowed: bool = True
    failed_steps: list[int] = Field(default_factory=list)


class EdaRunSummary(BaseModel):
    """A run in a list."""

    run_id: str
    status: EdaStatus
    source: str
    goal: str | None
    model: str
    created_at: datetime
    updated_at: datetime
    usage: TurnUsage | None = Field(
        default=None, description="What its model calls cost, summed over start and resumes; null if unknown."
    )

    @classmethod
    def of(cls, run: EdaRunRecord) -> EdaRunSummary:
        return cls(
            run_id=run.id,
            status=run.status,
            source=run.source,
            goal=run.goal,
            model=run.model,
            created_at=run.created_at,
            updated_at=run.updated_at,
            usage=run.usage,
        )


class EdaRunView(EdaRunSummary):
    """A run in full: where it stands, its plan, profile, results and report."""

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
    workspace: str
    error: str | None = None


def view_of(run: EdaRunRecord, state: EdaState | None, shown: dict[str, Any] | None) -> EdaRunView:
    """The view of ``run`` from its store row, its graph state and the review it waits at."""
    summary = EdaRunSummary.of(run).model_dump()
    base = run.workspace.rstrip("/")
    if state is None:
        return EdaRunView(**summary, workspace=run.workspace, error=run.error)
    files = {kind: f"{base}/{path}" for kind, path in state.report_paths.items()}
    return EdaRunView(
        **summary,
        review=EdaReview.model_validate(shown) if shown else None,
        problems=state.problems,
        plan=state.analysis_plan,
        findings=state.findings,
        profile=state.profile,
        report_path=files.get("md"),
        report_markdown=state.report_content or None,
        report_files=files,
        artifacts=[f"{base}/{path}" for path in state.generated_files],
        executions=[state.outcomes[key] for key in sorted(state.outcomes, key=int)],
        workspace=run.workspace,
        error=run.error or state.error_message,
    )

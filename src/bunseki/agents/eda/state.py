"""The EDA graph's state: references and text only, never a DataFrame.

Paths are relative to the run's workspace, so a run resumes wherever its workspace is found.
"""

from __future__ import annotations

from typing import Any, Final, Literal

from pydantic import BaseModel, Field

from bunseki.domain import EdaStatus, Finding, Language, PlanStep, StepOutcome, TableProfile
from bunseki.domain.profiles import ColumnProfile, Correlation, TopValue

Review = Literal["plan", "results"]
Action = Literal["approve", "feedback", "stop"]
# What the last node decided, for routing: a review's answer, or how planning and execution went.
Outcome = Literal["approve", "feedback", "stop", "planned", "replanned", "recode", "unclear", "executed", "failed"]


class EdaState(BaseModel):
    """The data, plan, code, outputs, report and review answer, plus the profile, per-step records
    and the loop caps."""

    # the pipeline's data, plan, code, outputs, report and review answer
    raw_data_path: str = Field(description="The data file as given, relative to the workspace (data/…).")
    validated_data_path: str | None = Field(default=None, description="The typed table as Parquet.")
    analysis_params: dict[str, Any] = Field(default_factory=dict, description="goal, source name, model.")
    analysis_plan: list[PlanStep] = Field(default_factory=list)
    generated_code: str = Field(default="", description="The code of the step being run.")
    execution_stdout: str = ""
    execution_stderr: str = ""
    generated_files: list[str] = Field(default_factory=list, description="Every file the steps wrote.")
    analysis_summary: str = ""
    report_content: str = Field(default="", description="The report as Markdown.")
    error_message: str | None = None
    user_feedback: str | None = None
    agent_outcome: Outcome | None = None
    # language, status, the profile, per-step records and the loop caps
    language: Language = "ja"
    status: EdaStatus = "running"
    problems: list[str] = Field(default_factory=list, description="What validation found, one line each.")
    profile: TableProfile | None = None
    plan_note: str | None = Field(default=None, description="What the planner says at the next review.")
    review: Review | None = Field(default=None, description="The review the latest feedback came from.")
    current_step: int | None = None
    attempt: int = Field(default=0, description="Which attempt at the current step this is, from 1.")
    step_error: str | None = Field(default=None, description="The failed attempt's error, for the retry.")
    outcomes: dict[str, StepOutcome] = Field(default_factory=dict, description="By step id (as text).")
    findings: list[Finding] = Field(default_factory=list)
    report_paths: dict[str, str] = Field(default_factory=dict, description="md, html, ipynb.")
    plan_revisions: int = 0
    result_rounds: int = 0
    max_plan_revisions: int = 5
    max_result_rounds: int = 3
    max_attempts: int = 2

    def pending_steps(self) -> list[PlanStep]:
        """Plan steps that have no outcome yet, in plan order."""
        return [step for step in self.analysis_plan if str(step.id) not in self.outcomes]


# The pydantic types the state holds, which the checkpoint serializer must know to restore.
STATE_TYPES: Final = (EdaState, PlanStep, StepOutcome, Finding, TableProfile, ColumnProfile, Correlation, TopValue)
# Where some of them were defined before they moved to bunseki.domain: checkpoints of runs paused
# then name those modules, which still give each class under its name.
FORMER_HOMES: Final = {
    "bunseki.brain.eda": (PlanStep, StepOutcome, Finding),
    "bunseki.data.profile.models": (TableProfile, ColumnProfile, Correlation, TopValue),
}
FORMER_NAMES: Final = [(module, kind.__name__) for module, kinds in FORMER_HOMES.items() for kind in kinds]

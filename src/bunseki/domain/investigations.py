"""An investigation of a case: where it stands, dataset by dataset and agent by agent, and its result.

The investigation runs service keeps each run in files and builds these from them;
``/api/v1/investigations`` sends them (with files as URLs) and the UI shows them.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Final, Literal

from pydantic import BaseModel, Field

from bunseki.domain.usage import TurnUsage

InvestigationStatus = Literal["queued", "running", "completed", "error"]
FINISHED: Final[tuple[InvestigationStatus, ...]] = ("completed", "error")


class DatasetProgress(BaseModel):
    """Where one dataset stands: the agent working on it (or the last one), and its verifier iteration."""

    name: str
    agent: str | None = Field(default=None, description="data_checker, consistency_checker, … reporter")
    iteration: int = 0
    done: bool = False


class InvestigationSummary(BaseModel):
    """An investigation in a list."""

    investigation_id: str
    case: str
    source: str = Field(description="The uploaded archive's name.")
    model: str
    status: InvestigationStatus
    error: str | None = None
    created_at: datetime
    updated_at: datetime
    usage: TurnUsage | None = Field(default=None, description="What its model calls cost, once it has ended.")


class InvestigationRun(InvestigationSummary):
    """An investigation in full: progress per dataset and agent, then the result (the CLI's JSON contract)."""

    stage: str | None = Field(default=None, description="The agent that ran last (initialize … summarizer).")
    datasets: list[DatasetProgress] = Field(default_factory=list)
    result: dict[str, Any] | None = Field(default=None, description="As `bunseki investigate --format json`.")

    @property
    def finished(self) -> bool:
        return self.status in FINISHED

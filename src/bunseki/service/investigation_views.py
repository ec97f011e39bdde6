"""What the investigation runs service hands the interfaces: a run's summary, progress and result."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, Field

from bunseki.usage import TurnUsage

RunStatus = Literal["queued", "running", "completed", "error"]
FINISHED: tuple[RunStatus, ...] = ("completed", "error")


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
    status: RunStatus
    error: str | None = None
    created_at: datetime
    updated_at: datetime
    usage: TurnUsage | None = Field(default=None, description="What its model calls cost, once it has ended.")


class InvestigationRunView(InvestigationSummary):
    """An investigation in full: progress per dataset and agent, then the result (the CLI's JSON contract)."""

    stage: str | None = Field(default=None, description="The agent that ran last (initialize … summarizer).")
    datasets: list[DatasetProgress] = Field(default_factory=list)
    result: dict[str, Any] | None = Field(default=None, description="As `bunseki investigate --format json`.")

    @property
    def finished(self) -> bool:
        return self.status in FINISHED


def progress_of(names: list[str], events: list[dict[str, Any]]) -> tuple[str | None, list[DatasetProgress]]:
    """The last agent overall and each dataset's progress, from the run's events in order."""
    datasets = {name: DatasetProgress(name=name) for name in names}
    stage: str | None = None
    for event in events:
        if event.get("event") != "node_started":
            continue
        stage = str(event.get("node"))
        entry = datasets.get(str(event.get("dataset")))
        if entry is None:
            continue
        entry.agent = stage
        entry.iteration = int(event.get("iteration") or entry.iteration)
        entry.done = entry.done or stage == "reporter"
    return stage, list(datasets.values())

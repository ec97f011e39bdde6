"""What the store hands out: frozen copies of rows, so no ORM object (or open session) leaves it."""

from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import AwareDatetime, BaseModel, ConfigDict, field_validator

from bunseki.usage import TurnUsage

Role = Literal["user", "assistant"]
TurnStatus = Literal["running", "finalized", "asked", "limit_reached", "error", "interrupted"]
FinishedStatus = Literal["finalized", "asked", "limit_reached", "error", "interrupted"]
ArtifactKind = Literal["image", "table", "file"]


class _Record(BaseModel):
    model_config = ConfigDict(frozen=True, from_attributes=True)


class UserRecord(_Record):
    """Someone who may use the API; the key itself is shown once, at creation, and never kept."""

    id: str
    name: str
    key_prefix: str | None
    created_at: AwareDatetime
    revoked_at: AwareDatetime | None


class SessionRecord(_Record):
    """One conversation about one data file; paths are relative to ``workspace``."""

    id: str
    user_id: str | None
    title: str
    dataset_name: str
    dataset_path: str
    dataset_format: str
    dataset_encoding: str | None
    dataset_rows: int
    dataset_columns: int
    workspace: str
    model: str
    created_at: AwareDatetime
    updated_at: AwareDatetime


class _Used(_Record):
    """A record with the usage columns (`bunseki.store.models.UsageColumns`) and the model they count."""

    model: str | None = None
    llm_calls: int | None = None
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    llm_seconds: float | None = None
    cost: float | None = None

    @field_validator("trace", mode="before", check_fields=False)
    @classmethod
    def _trace(cls, value: Any) -> Any:
        return json.loads(value) if isinstance(value, str) else value

    @property
    def usage(self) -> TurnUsage | None:
        """What its model calls cost; None while it runs, or when it was recorded before usage was."""
        if self.model is None or self.llm_calls is None:
            return None
        return TurnUsage(
            model=self.model,
            calls=self.llm_calls,
            prompt_tokens=self.prompt_tokens or 0,
            completion_tokens=self.completion_tokens or 0,
            seconds=self.llm_seconds or 0.0,
            cost=self.cost,
        )


class TurnRecord(_Used):
    """One question of a session, numbered from 1, and how its run ended."""

    id: str
    session_id: str
    number: int
    question: str
    status: TurnStatus
    owner: str | None
    started_at: AwareDatetime
    finished_at: AwareDatetime | None
    error: str | None
    model: str | None = None
    trace: dict[str, Any] | None = None


class MessageRecord(_Record):
    """One chat message at its position (from 1) in the session."""

    id: str
    session_id: str
    turn_id: str | None
    position: int
    role: Role
    content: str
    created_at: AwareDatetime


class StepRecord(_Record):
    """One operation on the data at its position (from 1) in the session."""

    id: str
    session_id: str
    turn_id: str | None
    position: int
    step_type: str
    parameters: dict[str, Any]
    result: Any
    rows_before: int | None
    rows_after: int | None
    changes_data: bool
    duration_s: float
    created_at: AwareDatetime


class SnapshotRecord(_Record):
    """A saved state of the data: the table after ``step_position`` steps, stored at ``path``."""

    id: str
    session_id: str
    name: str
    path: str
    rows: int
    columns: int
    step_position: int
    created_at: AwareDatetime


class ArtifactRecord(_Record):
    """A file a turn produced, relative to the session's workspace."""

    id: str
    session_id: str
    turn_id: str | None
    path: str
    kind: ArtifactKind
    created_at: AwareDatetime


class ReportRecord(_Record):
    """A report: its full content and the relative paths of the files rendered from it."""

    id: str
    session_id: str
    turn_id: str | None
    title: str
    conclusion: str
    content: dict[str, Any]
    markdown_path: str | None
    html_path: str | None
    notebook_path: str | None
    created_at: AwareDatetime


class UnansweredRecord(_Record):
    """A question that went unanswered, and why; ``session_id`` is None once the session is deleted.

    ``collections`` are the knowledge-base collections a knowledge question was asked over (empty
    for the analyst's questions)."""

    id: str
    session_id: str | None
    question: str
    reason: str
    source: str
    collections: list[str]
    created_at: AwareDatetime


EdaStatus = Literal["running", "awaiting_plan_review", "awaiting_results_review", "completed", "stopped", "error"]


class EdaRunRecord(_Used):
    """One EDA run: the data file's name, its workspace, where the run stands, and what its model
    calls cost, summed over the calls that advanced it (``trace``: one trace for each)."""

    id: str
    user_id: str | None
    source: str
    workspace: str
    goal: str | None
    model: str
    status: EdaStatus
    error: str | None
    created_at: AwareDatetime
    updated_at: AwareDatetime
    trace: list[dict[str, Any]] | None = None


class KnowledgeConversationRecord(_Record):
    """A knowledge-chat conversation: its collections, model (None: the default) and owner."""

    id: str
    user_id: str | None
    collections: list[str]
    model: str | None
    created_at: AwareDatetime
    updated_at: AwareDatetime


class KnowledgeTurnRecord(_Used):
    """One question of a knowledge conversation, its answer (the service's Answer, as JSON), and
    what its model calls cost."""

    id: str
    conversation_id: str
    number: int
    question: str
    answer: dict[str, Any]
    created_at: AwareDatetime
    trace: dict[str, Any] | None = None

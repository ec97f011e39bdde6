"""What the analysis service hands the interfaces: frozen views, never store records.

The CLI, the API and the UI read sessions, messages, steps, snapshots, reports and users through
these classes only, so the store can change its rows without the interfaces noticing. Each view
holds what an interface shows or sends (``bunseki sessions show --json`` and ``users list --json``
print whole views, so those keep every field) and is built from its record by ``View.of(record)``.
"""

from __future__ import annotations

from typing import Any, Self

from pydantic import AwareDatetime, BaseModel, ConfigDict

from bunseki.store import (
    ArtifactKind,
    ArtifactRecord,
    MessageRecord,
    ReportRecord,
    Role,
    SessionRecord,
    SnapshotRecord,
    StepRecord,
    TurnRecord,
    TurnStatus,
    UserRecord,
)
from bunseki.usage import TurnUsage


class _View(BaseModel):
    model_config = ConfigDict(frozen=True, from_attributes=True)

    @classmethod
    def _from(cls, record: BaseModel) -> Self:
        """The view's fields, read from ``record`` by name."""
        return cls.model_validate(record, from_attributes=True)


class UserView(_View):
    """Someone who may use the API; their key is shown once, at creation, and never kept."""

    id: str
    name: str
    key_prefix: str | None
    created_at: AwareDatetime
    revoked_at: AwareDatetime | None

    @classmethod
    def of(cls, record: UserRecord) -> UserView:
        return cls._from(record)


class SessionView(_View):
    """One conversation about one data file; ``dataset_path`` is relative to ``workspace``."""

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

    @classmethod
    def of(cls, record: SessionRecord) -> SessionView:
        return cls._from(record)


class TurnView(_View):
    """One question of a session, numbered from 1, how its run ended ("running" while it runs) and
    what its model calls cost (None while it runs, and for turns recorded before usage was)."""

    id: str
    number: int
    status: TurnStatus
    usage: TurnUsage | None = None

    @classmethod
    def of(cls, record: TurnRecord) -> TurnView:
        return cls._from(record)


class MessageView(_View):
    """One chat message at its position (from 1) in the session."""

    id: str
    session_id: str
    turn_id: str | None
    position: int
    role: Role
    content: str
    created_at: AwareDatetime

    @classmethod
    def of(cls, record: MessageRecord) -> MessageView:
        return cls._from(record)


class StepView(_View):
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

    @classmethod
    def of(cls, record: StepRecord) -> StepView:
        return cls._from(record)


class SnapshotView(_View):
    """A saved state of the data: the table after ``step_position`` steps, kept at ``path``."""

    id: str
    session_id: str
    name: str
    path: str
    rows: int
    columns: int
    step_position: int
    created_at: AwareDatetime

    @classmethod
    def of(cls, record: SnapshotRecord) -> SnapshotView:
        return cls._from(record)


class ArtifactView(_View):
    """A file a turn produced, relative to the session's workspace."""

    id: str
    session_id: str
    turn_id: str | None
    path: str
    kind: ArtifactKind
    created_at: AwareDatetime

    @classmethod
    def of(cls, record: ArtifactRecord) -> ArtifactView:
        return cls._from(record)


class ReportView(_View):
    """A report: its content (a `ReportOutput` as JSON) and the workspace paths of its files."""

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

    @classmethod
    def of(cls, record: ReportRecord) -> ReportView:
        return cls._from(record)

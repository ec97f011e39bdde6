"""An analysis session and what happens in it: its turns, messages, steps, snapshots, artifacts and
reports; the users who own sessions; the questions left unanswered.

The store reads these from its rows and the service hands them to the CLI, the API and the UI as
they are. Paths are relative to the session's ``workspace``. ``bunseki sessions show --json`` and
``bunseki users list --json`` print them whole, so every field here is part of that contract.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import AwareDatetime, Field

from bunseki.domain.forms import Entity
from bunseki.domain.usage import TurnUsage

Role = Literal["user", "assistant"]
TurnStatus = Literal["running", "finalized", "asked", "limit_reached", "error", "interrupted"]
FinishedStatus = Literal["finalized", "asked", "limit_reached", "error", "interrupted"]
ArtifactKind = Literal["image", "table", "file"]


class User(Entity):
    """Someone who may use the API; their key is shown once, at creation, and never kept."""

    id: str
    name: str
    key_prefix: str | None
    created_at: AwareDatetime
    revoked_at: AwareDatetime | None


class Session(Entity):
    """One conversation about one data file; ``dataset_path`` is relative to ``workspace``."""

    id: str
    user_id: str | None
    title: str
    dataset_name: str
    dataset_path: str
    dataset_format: str
    dataset_encoding: str | None
    dataset_rows: int = Field(description="Rows of the data as uploaded.")
    dataset_columns: int
    workspace: str
    model: str
    created_at: AwareDatetime
    updated_at: AwareDatetime


class Turn(Entity):
    """One question of a session, numbered from 1, and how its run ended ("running" while it runs).

    ``usage`` is what its model calls cost, and ``model`` the model they went to: None while it
    runs, and for turns recorded before usage was. ``trace`` is its local trace
    (`bunseki.tracing.TurnRecorder.trace`), None until it ends."""

    id: str
    session_id: str
    number: int
    question: str
    status: TurnStatus
    owner: str | None = Field(description="The process running it (`bunseki.owners`).")
    started_at: AwareDatetime
    finished_at: AwareDatetime | None
    error: str | None
    model: str | None = None
    usage: TurnUsage | None = None
    trace: dict[str, Any] | None = None


class Message(Entity):
    """One chat message at its position (from 1) in the session."""

    id: str
    session_id: str
    turn_id: str | None
    position: int
    role: Role
    content: str
    created_at: AwareDatetime


class Step(Entity):
    """One operation on the data (a tool, code, a reset, a restore, a snapshot) at its position
    (from 1) in the session."""

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


class Snapshot(Entity):
    """A saved state of the data: the table after ``step_position`` steps, kept at ``path``."""

    id: str
    session_id: str
    name: str = Field(description="A name to find it by, unique within the session.")
    path: str
    rows: int
    columns: int
    step_position: int
    created_at: AwareDatetime


class Artifact(Entity):
    """A file a turn produced, relative to the session's workspace."""

    id: str
    session_id: str
    turn_id: str | None
    path: str
    kind: ArtifactKind
    created_at: AwareDatetime


class Report(Entity):
    """A report: its content (a `ReportOutput` as JSON) and the workspace paths of
    the files rendered from it."""

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


class Unanswered(Entity):
    """A question that went unanswered, and why; ``session_id`` is None once the session is deleted.

    ``source`` is the chat it was asked in; ``collections`` are the knowledge-base collections a
    knowledge question was asked over (empty for the analyst's questions)."""

    id: str
    session_id: str | None
    source: str
    question: str
    collections: list[str]
    reason: str
    created_at: AwareDatetime

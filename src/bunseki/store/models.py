"""The tables, as SQLAlchemy declarative models that run unchanged on SQLite and PostgreSQL.

Only `bunseki.store` touches these classes; callers get the frozen records of `records.py`.
Migrations in ``migrations/versions`` must create exactly this schema (a test compares them).
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Annotated, Any, ClassVar

from sqlalchemy import (
    JSON,
    DateTime,
    Dialect,
    ForeignKey,
    MetaData,
    String,
    Text,
    TypeDecorator,
    UniqueConstraint,
    text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

# Constraint names are part of the schema that migrations reproduce, so none is left to the backend.
NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


def new_id() -> str:
    """A fresh primary key: a uuid4 as 32 hex digits."""
    return uuid.uuid4().hex


def utcnow() -> datetime:
    """The current time, timezone-aware, in UTC."""
    return datetime.now(UTC)


class UTCDateTime(TypeDecorator[datetime]):
    """A timezone-aware UTC timestamp on every backend (SQLite stores it as naive UTC text)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError(f"naive datetime {value!r}: timestamps must carry a timezone")
        return value.astimezone(UTC)

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


Id = Annotated[str, mapped_column(String(32), primary_key=True, default=new_id)]
Created = Annotated[datetime, mapped_column(UTCDateTime, default=utcnow)]
Timestamp = Annotated[datetime, mapped_column(UTCDateTime)]
SessionRef = Annotated[str, mapped_column(ForeignKey("sessions.id", ondelete="CASCADE"), index=True)]
TurnRef = Annotated[str | None, mapped_column(ForeignKey("turns.id", ondelete="CASCADE"), index=True)]
Json = Annotated[Any, mapped_column(JSON, nullable=False)]


class Base(DeclarativeBase):
    """Declarative base whose metadata names every constraint and index."""

    metadata = MetaData(naming_convention=NAMING_CONVENTION)
    type_annotation_map: ClassVar[dict[Any, Any]] = {datetime: UTCDateTime}


class UsageColumns:
    """What a run's model calls cost and its trace (null: not recorded, unknown rather than zero):
    see bunseki.usage. Turns, EDA runs and knowledge turns carry these columns."""

    llm_calls: Mapped[int | None]
    prompt_tokens: Mapped[int | None]
    completion_tokens: Mapped[int | None]
    llm_seconds: Mapped[float | None]
    cost: Mapped[float | None]
    trace: Mapped[str | None] = mapped_column(Text)  # JSON: bunseki.tracing.TurnRecorder.trace


class User(Base):
    """Someone who may use the API; only the sha256 of their key is kept."""

    __tablename__ = "users"

    id: Mapped[Id]
    name: Mapped[str] = mapped_column(String(200), unique=True)
    key_hash: Mapped[str | None] = mapped_column(String(64))
    key_prefix: Mapped[str | None] = mapped_column(String(8))
    created_at: Mapped[Created]
    revoked_at: Mapped[datetime | None]


class AnalysisSession(Base):
    """One conversation about one uploaded data file, with its workspace directory."""

    __tablename__ = "sessions"

    id: Mapped[Id]
    user_id: Mapped[str | None] = mapped_column(ForeignKey("users.id"), index=True)
    title: Mapped[str] = mapped_column(Text)
    dataset_name: Mapped[str] = mapped_column(Text)
    dataset_path: Mapped[str] = mapped_column(Text)
    dataset_format: Mapped[str] = mapped_column(String(16))
    dataset_encoding: Mapped[str | None] = mapped_column(String(32))
    dataset_rows: Mapped[int]
    dataset_columns: Mapped[int]
    workspace: Mapped[str] = mapped_column(Text)
    model: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[Created]
    updated_at: Mapped[Timestamp]


class Turn(UsageColumns, Base):
    """One question and the run that answers it; ``owner`` names the process running it."""

    __tablename__ = "turns"
    __table_args__ = (UniqueConstraint("session_id", "number"),)

    id: Mapped[Id]
    session_id: Mapped[SessionRef]
    number: Mapped[int]
    question: Mapped[str] = mapped_column(Text)
    status: Mapped[str] = mapped_column(String(16))
    owner: Mapped[str | None] = mapped_column(Text)
    started_at: Mapped[Timestamp]
    finished_at: Mapped[datetime | None]
    error: Mapped[str | None] = mapped_column(Text)
    model: Mapped[str | None] = mapped_column(String(200))  # the model its calls went to (usage)


class Message(Base):
    """One chat message, in conversation order."""

    __tablename__ = "messages"
    __table_args__ = (UniqueConstraint("session_id", "position"),)

    id: Mapped[Id]
    session_id: Mapped[SessionRef]
    turn_id: Mapped[TurnRef]
    position: Mapped[int]
    role: Mapped[str] = mapped_column(String(16))
    content: Mapped[str] = mapped_column(Text)
    created_at: Mapped[Created]


class Step(Base):
    """One operation on the data (a tool call, a code cell, a reset or restore), in order."""

    __tablename__ = "steps"
    __table_args__ = (UniqueConstraint("session_id", "position"),)

    id: Mapped[Id]
    session_id: Mapped[SessionRef]
    turn_id: Mapped[TurnRef]
    position: Mapped[int]
    step_type: Mapped[str] = mapped_column(String(64))
    parameters: Mapped[Json]
    result: Mapped[Json]
    rows_before: Mapped[int | None]
    rows_after: Mapped[int | None]
    changes_data: Mapped[bool]
    duration_s: Mapped[float]
    created_at: Mapped[Created]


class Snapshot(Base):
    """A saved state of the data: the table after the first ``step_position`` steps.

    Names are unique within a session, so that "restore the snapshot called a" means one thing."""

    __tablename__ = "snapshots"
    __table_args__ = (UniqueConstraint("session_id", "name"),)

    id: Mapped[Id]
    session_id: Mapped[SessionRef]
    name: Mapped[str] = mapped_column(String(200))
    path: Mapped[str] = mapped_column(Text)
    rows: Mapped[int]
    columns: Mapped[int]
    step_position: Mapped[int]
    created_at: Mapped[Created]


class Artifact(Base):
    """A file a turn produced in the workspace: an image, a table or another file."""

    __tablename__ = "artifacts"

    id: Mapped[Id]
    session_id: Mapped[SessionRef]
    turn_id: Mapped[TurnRef]
    path: Mapped[str] = mapped_column(Text)
    kind: Mapped[str] = mapped_column(String(16))
    created_at: Mapped[Created]


class Report(Base):
    """A finished report: its full content as JSON and the files rendered from it."""

    __tablename__ = "reports"

    id: Mapped[Id]
    session_id: Mapped[SessionRef]
    turn_id: Mapped[TurnRef]
    title: Mapped[str] = mapped_column(Text)
    conclusion: Mapped[str] = mapped_column(Text)
    content: Mapped[Json]
    markdown_path: Mapped[str | None] = mapped_column(Text)
    html_path: Mapped[str | None] = mapped_column(Text)
    notebook_path: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[Created]


class UnansweredQuestion(Base):
    """A question Bunseki could not answer, kept (beyond its session's life) to improve it."""

    __tablename__ = "unanswered_questions"

    id: Mapped[Id]
    session_id: Mapped[str | None] = mapped_column(ForeignKey("sessions.id", ondelete="SET NULL"), index=True)
    question: Mapped[str] = mapped_column(Text)
    reason: Mapped[str] = mapped_column(Text)
    source: Mapped[str] = mapped_column(String(32))
    collections: Mapped[Json] = mapped_column(server_default=text("'[]'"), default=list)
    created_at: Mapped[Created]


class EdaRun(UsageColumns, Base):
    """One run of the EDA pipeline; its graph state lives in LangGraph's checkpoint tables under ``id``.

    Its usage is summed over the calls that advanced it (start, each resume); ``trace`` is a JSON list
    of their traces."""

    __tablename__ = "eda_runs"

    id: Mapped[Id]
    user_id: Mapped[str | None] = mapped_column(ForeignKey("users.id"), index=True)
    source: Mapped[str] = mapped_column(Text)
    workspace: Mapped[str] = mapped_column(Text)
    goal: Mapped[str | None] = mapped_column(Text)
    model: Mapped[str] = mapped_column(String(200))
    status: Mapped[str] = mapped_column(String(32))
    error: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[Created]
    updated_at: Mapped[Timestamp]


class KnowledgeConversation(Base):
    """A knowledge-chat conversation: the collections and model it asks with, its owner."""

    __tablename__ = "knowledge_conversations"

    id: Mapped[Id]
    user_id: Mapped[str | None] = mapped_column(ForeignKey("users.id"), index=True)
    collections: Mapped[Json]
    model: Mapped[str | None] = mapped_column(String(200))
    created_at: Mapped[Created]
    updated_at: Mapped[Timestamp]


class KnowledgeTurn(UsageColumns, Base):
    """One question of a knowledge conversation, numbered from 1, and its whole answer as JSON."""

    __tablename__ = "knowledge_turns"
    __table_args__ = (UniqueConstraint("conversation_id", "number"),)

    id: Mapped[Id]
    conversation_id: Mapped[str] = mapped_column(
        ForeignKey("knowledge_conversations.id", ondelete="CASCADE"), index=True
    )
    number: Mapped[int]
    question: Mapped[str] = mapped_column(Text)
    answer: Mapped[Json]
    created_at: Mapped[Created]
    model: Mapped[str | None] = mapped_column(String(200))  # the model its calls went to (usage)


class SessionEpoch(Base):
    """The fencing epoch of a session's sandbox: taken by every (re)start, checked before every write.

    No foreign key: the sandbox backend fences any session id it serves, stored session or not."""

    __tablename__ = "session_epochs"

    session_id: Mapped[str] = mapped_column(String(200), primary_key=True)
    epoch: Mapped[int]
    holder: Mapped[str] = mapped_column(Text)
    updated_at: Mapped[Timestamp]


class ReplicaBeat(Base):
    """A process that answers questions, and when it last said it lives (by the database's clock).

    No foreign key: a process is not a stored thing; its turns name it in ``turns.owner``."""

    __tablename__ = "replicas"

    owner: Mapped[str] = mapped_column(String(200), primary_key=True)  # host:pid:start-time (bunseki.owners)
    seen_at: Mapped[Timestamp]

"""Persistence on SQLite or PostgreSQL: users, sessions, turns, messages, steps, snapshots, artifacts,
reports, EDA runs, knowledge conversations.

`Store` is the only entry point; it returns frozen records and raises `bunseki.errors` types.
The schema comes from the Alembic migrations shipped in ``migrations/``, applied by `migrate`.
"""

from bunseki.store.db import make_engine, migrate
from bunseki.store.records import (
    ArtifactKind,
    ArtifactRecord,
    EdaRunRecord,
    EdaStatus,
    FinishedStatus,
    KnowledgeConversationRecord,
    KnowledgeTurnRecord,
    MessageRecord,
    ReportRecord,
    Role,
    SessionRecord,
    SnapshotRecord,
    StepRecord,
    TurnRecord,
    TurnStatus,
    UnansweredRecord,
    UserRecord,
)
from bunseki.store.repository import SessionChanges, Store

__all__ = [
    "ArtifactKind",
    "ArtifactRecord",
    "EdaRunRecord",
    "EdaStatus",
    "FinishedStatus",
    "KnowledgeConversationRecord",
    "KnowledgeTurnRecord",
    "MessageRecord",
    "ReportRecord",
    "Role",
    "SessionChanges",
    "SessionRecord",
    "SnapshotRecord",
    "StepRecord",
    "Store",
    "TurnRecord",
    "TurnStatus",
    "UnansweredRecord",
    "UserRecord",
    "make_engine",
    "migrate",
]

"""Initial schema: users, sessions and everything a session holds.

Revision ID: 0001
Revises:
Create Date: 2025-01-01 00:00:00
"""

from __future__ import annotations

from datetime import datetime

import sqlalchemy as sa
from alembic import op
from sqlalchemy.schema import SchemaItem

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

# Tables whose rows belong to a session, in the order upgrade creates them (downgrade reverses it).
_SESSION_CHILDREN = ("turns", "messages", "steps", "snapshots", "artifacts", "reports")


def _id() -> sa.Column[str]:
    return sa.Column("id", sa.String(32), nullable=False)


def _created_at() -> sa.Column[datetime]:
    return sa.Column("created_at", sa.DateTime(timezone=True), nullable=False)


def _session_id(table: str) -> list[SchemaItem]:
    return [
        sa.Column("session_id", sa.String(32), nullable=False),
        sa.ForeignKeyConstraint(
            ["session_id"], ["sessions.id"], name=f"fk_{table}_session_id_sessions", ondelete="CASCADE"
        ),
    ]


def _turn_id(table: str) -> list[SchemaItem]:
    return [
        sa.Column("turn_id", sa.String(32), nullable=True),
        sa.ForeignKeyConstraint(["turn_id"], ["turns.id"], name=f"fk_{table}_turn_id_turns", ondelete="CASCADE"),
    ]


def upgrade() -> None:
    op.create_table(
        "users",
        _id(),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("key_hash", sa.String(64), nullable=True),
        sa.Column("key_prefix", sa.String(8), nullable=True),
        _created_at(),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_users"),
        sa.UniqueConstraint("name", name="uq_users_name"),
    )
    op.create_table(
        "sessions",
        _id(),
        sa.Column("user_id", sa.String(32), nullable=True),
        sa.Column("title", sa.Text(), nullable=False),
        sa.Column("dataset_name", sa.Text(), nullable=False),
        sa.Column("dataset_path", sa.Text(), nullable=False),
        sa.Column("dataset_format", sa.String(16), nullable=False),
        sa.Column("dataset_encoding", sa.String(32), nullable=True),
        sa.Column("dataset_rows", sa.Integer(), nullable=False),
        sa.Column("dataset_columns", sa.Integer(), nullable=False),
        sa.Column("workspace", sa.Text(), nullable=False),
        sa.Column("model", sa.String(200), nullable=False),
        _created_at(),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_sessions"),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name="fk_sessions_user_id_users"),
    )
    op.create_index("ix_sessions_user_id", "sessions", ["user_id"])
    op.create_table(
        "turns",
        _id(),
        *_session_id("turns"),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("question", sa.Text(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("owner", sa.Text(), nullable=True),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("error", sa.Text(), nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_turns"),
        sa.UniqueConstraint("session_id", "number", name="uq_turns_session_id_number"),
    )
    op.create_table(
        "messages",
        _id(),
        *_session_id("messages"),
        *_turn_id("messages"),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("role", sa.String(16), nullable=False),
        sa.Column("content", sa.Text(), nullable=False),
        _created_at(),
        sa.PrimaryKeyConstraint("id", name="pk_messages"),
        sa.UniqueConstraint("session_id", "position", name="uq_messages_session_id_position"),
    )
    op.create_table(
        "steps",
        _id(),
        *_session_id("steps"),
        *_turn_id("steps"),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("step_type", sa.String(64), nullable=False),
        sa.Column("parameters", sa.JSON(), nullable=False),
        sa.Column("result", sa.JSON(), nullable=False),
        sa.Column("rows_before", sa.Integer(), nullable=True),
        sa.Column("rows_after", sa.Integer(), nullable=True),
        sa.Column("changes_data", sa.Boolean(), nullable=False),
        sa.Column("duration_s", sa.Double(), nullable=False),
        _created_at(),
        sa.PrimaryKeyConstraint("id", name="pk_steps"),
        sa.UniqueConstraint("session_id", "position", name="uq_steps_session_id_position"),
    )
    op.create_table(
        "snapshots",
        _id(),
        *_session_id("snapshots"),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("path", sa.Text(), nullable=False),
        sa.Column("rows", sa.Integer(), nullable=False),
        sa.Column("columns", sa.Integer(), nullable=False),
        sa.Column("step_position", sa.Integer(), nullable=False),
        _created_at(),
        sa.PrimaryKeyConstraint("id", name="pk_snapshots"),
    )
    op.create_table(
        "artifacts",
        _id(),
        *_session_id("artifacts"),
        *_turn_id("artifacts"),
        sa.Column("path", sa.Text(), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        _created_at(),
        sa.PrimaryKeyConstraint("id", name="pk_artifacts"),
    )
    op.create_table(
        "reports",
        _id(),
        *_session_id("reports"),
        *_turn_id("reports"),
        sa.Column("title", sa.Text(), nullable=False),
        sa.Column("conclusion", sa.Text(), nullable=False),
        sa.Column("content", sa.JSON(), nullable=False),
        sa.Column("markdown_path", sa.Text(), nullable=True),
        sa.Column("html_path", sa.Text(), nullable=True),
        sa.Column("notebook_path", sa.Text(), nullable=True),
        _created_at(),
        sa.PrimaryKeyConstraint("id", name="pk_reports"),
    )
    op.create_table(
        "unanswered_questions",
        _id(),
        sa.Column("session_id", sa.String(32), nullable=True),
        sa.Column("question", sa.Text(), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("source", sa.String(32), nullable=False),
        _created_at(),
        sa.PrimaryKeyConstraint("id", name="pk_unanswered_questions"),
        sa.ForeignKeyConstraint(
            ["session_id"], ["sessions.id"], name="fk_unanswered_questions_session_id_sessions", ondelete="SET NULL"
        ),
    )
    for table in _SESSION_CHILDREN:
        op.create_index(f"ix_{table}_session_id", table, ["session_id"])
    for table in ("messages", "steps", "artifacts", "reports"):
        op.create_index(f"ix_{table}_turn_id", table, ["turn_id"])
    op.create_index("ix_unanswered_questions_session_id", "unanswered_questions", ["session_id"])


def downgrade() -> None:
    for table in ("unanswered_questions", *reversed(_SESSION_CHILDREN), "sessions", "users"):
        op.drop_table(table)

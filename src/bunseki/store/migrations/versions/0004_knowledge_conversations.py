"""Knowledge-chat conversations and their turns, kept so that history survives a restart.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-25 08:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "knowledge_conversations",
        sa.Column("id", sa.String(32), nullable=False),
        sa.Column("user_id", sa.String(32), nullable=True),
        sa.Column("collections", sa.JSON(), nullable=False),
        sa.Column("model", sa.String(200), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_knowledge_conversations"),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name="fk_knowledge_conversations_user_id_users"),
    )
    op.create_index("ix_knowledge_conversations_user_id", "knowledge_conversations", ["user_id"])
    op.create_table(
        "knowledge_turns",
        sa.Column("id", sa.String(32), nullable=False),
        sa.Column("conversation_id", sa.String(32), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("question", sa.Text(), nullable=False),
        sa.Column("answer", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_knowledge_turns"),
        sa.ForeignKeyConstraint(
            ["conversation_id"],
            ["knowledge_conversations.id"],
            name="fk_knowledge_turns_conversation_id_knowledge_conversations",
            ondelete="CASCADE",
        ),
        sa.UniqueConstraint("conversation_id", "number", name="uq_knowledge_turns_conversation_id_number"),
    )
    op.create_index("ix_knowledge_turns_conversation_id", "knowledge_turns", ["conversation_id"])


def downgrade() -> None:
    op.drop_table("knowledge_turns")
    op.drop_table("knowledge_conversations")

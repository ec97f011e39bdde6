"""Turns keep what they cost and what they did: the model, its calls, tokens, seconds, cost, trace.

The columns are nullable: turns recorded before this revision have no usage, which reads as
"unknown" rather than as a turn that cost nothing.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-25 00:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

COLUMNS = ("model", "llm_calls", "prompt_tokens", "completion_tokens", "llm_seconds", "cost", "trace")


def upgrade() -> None:
    with op.batch_alter_table("turns") as batch:
        batch.add_column(sa.Column("model", sa.String(200), nullable=True))
        batch.add_column(sa.Column("llm_calls", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("prompt_tokens", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("completion_tokens", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("llm_seconds", sa.Double(), nullable=True))
        batch.add_column(sa.Column("cost", sa.Double(), nullable=True))
        batch.add_column(sa.Column("trace", sa.Text(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("turns") as batch:
        for name in reversed(COLUMNS):
            batch.drop_column(name)

"""EDA runs and knowledge turns keep what they cost and what they did, as turns do since 0006.

An EDA run's model is its ``model`` column already; a knowledge turn gets one. Nullable: runs and
turns recorded before this revision have no usage, which reads as "unknown", not as free.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-25 00:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

USAGE = ("llm_calls", "prompt_tokens", "completion_tokens", "llm_seconds", "cost", "trace")
TABLES = {"eda_runs": USAGE, "knowledge_turns": ("model", *USAGE)}


def _columns() -> dict[str, sa.Column[object]]:
    return {
        "model": sa.Column("model", sa.String(200), nullable=True),
        "llm_calls": sa.Column("llm_calls", sa.Integer(), nullable=True),
        "prompt_tokens": sa.Column("prompt_tokens", sa.Integer(), nullable=True),
        "completion_tokens": sa.Column("completion_tokens", sa.Integer(), nullable=True),
        "llm_seconds": sa.Column("llm_seconds", sa.Double(), nullable=True),
        "cost": sa.Column("cost", sa.Double(), nullable=True),
        "trace": sa.Column("trace", sa.Text(), nullable=True),
    }


def upgrade() -> None:
    for table, names in TABLES.items():
        columns = _columns()  # a Column belongs to one table: fresh ones for each
        with op.batch_alter_table(table) as batch:
            for name in names:
                batch.add_column(columns[name])


def downgrade() -> None:
    for table, names in TABLES.items():
        with op.batch_alter_table(table) as batch:
            for name in reversed(names):
                batch.drop_column(name)

"""EDA runs: one row per run of the EDA pipeline (its graph state is in LangGraph's checkpoints).

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-25 00:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "eda_runs",
        sa.Column("id", sa.String(32), nullable=False),
        sa.Column("user_id", sa.String(32), nullable=True),
        sa.Column("source", sa.Text(), nullable=False),
        sa.Column("workspace", sa.Text(), nullable=False),
        sa.Column("goal", sa.Text(), nullable=True),
        sa.Column("model", sa.String(200), nullable=False),
        sa.Column("status", sa.String(32), nullable=False),
        sa.Column("error", sa.Text(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_eda_runs"),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name="fk_eda_runs_user_id_users"),
    )
    op.create_index("ix_eda_runs_user_id", "eda_runs", ["user_id"])


def downgrade() -> None:
    op.drop_table("eda_runs")

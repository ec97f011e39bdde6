"""Replicas record that they live (a heartbeat by the database's clock), so that another machine can
tell when a replica that died mid-turn is gone, in seconds instead of the longest a turn can take.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-25 00:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "replicas",
        sa.Column("owner", sa.String(length=200), nullable=False),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("owner", name=op.f("pk_replicas")),
    )


def downgrade() -> None:
    op.drop_table("replicas")

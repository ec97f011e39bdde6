"""The fencing epoch of each session's sandbox (Ray backend): one row per session, bumped by every start.

Revision ID: 0007
Revises: 0005
Create Date: 2026-11-25 00:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "session_epochs",
        sa.Column("session_id", sa.String(length=200), nullable=False),
        sa.Column("epoch", sa.Integer(), nullable=False),
        sa.Column("holder", sa.Text(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("session_id", name=op.f("pk_session_epochs")),
    )


def downgrade() -> None:
    op.drop_table("session_epochs")

"""Unanswered questions remember the knowledge-base collections they were asked over.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-23 00:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Rows from before (the analyst's) were asked over no collection.
    with op.batch_alter_table("unanswered_questions") as batch:
        batch.add_column(sa.Column("collections", sa.JSON(), nullable=False, server_default=sa.text("'[]'")))


def downgrade() -> None:
    with op.batch_alter_table("unanswered_questions") as batch:
        batch.drop_column("collections")

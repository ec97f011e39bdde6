"""Snapshot names are unique within a session, so that a restore by name means one snapshot.

Existing duplicates are renamed first, in the order they were saved: the first keeps its name,
the next become ``name (2)``, ``name (3)``, … (skipping any name the session already uses).

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-25 00:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

NAME_LENGTH = 200  # snapshots.name is String(200)

snapshots = sa.table(
    "snapshots",
    sa.column("id", sa.String()),
    sa.column("session_id", sa.String()),
    sa.column("name", sa.String()),
    sa.column("created_at", sa.DateTime()),
)


def upgrade() -> None:
    _rename_duplicates()
    with op.batch_alter_table("snapshots") as batch:
        batch.create_unique_constraint("uq_snapshots_session_id_name", ["session_id", "name"])


def downgrade() -> None:
    with op.batch_alter_table("snapshots") as batch:
        batch.drop_constraint("uq_snapshots_session_id_name", type_="unique")


def _rename_duplicates() -> None:
    connection = op.get_bind()
    rows = connection.execute(
        sa.select(snapshots.c.id, snapshots.c.session_id, snapshots.c.name).order_by(
            snapshots.c.session_id, snapshots.c.created_at, snapshots.c.id
        )
    ).all()
    taken: dict[str, set[str]] = {}
    for row in rows:
        taken.setdefault(row.session_id, set()).add(row.name)
    seen: dict[str, set[str]] = {}
    for row in rows:
        names = seen.setdefault(row.session_id, set())
        if row.name not in names:
            names.add(row.name)
            continue
        fresh = _free_name(row.name, taken[row.session_id])
        taken[row.session_id].add(fresh)
        names.add(fresh)
        connection.execute(sa.update(snapshots).where(snapshots.c.id == row.id).values(name=fresh))


def _free_name(name: str, taken: set[str]) -> str:
    number = 2
    while True:
        suffix = f" ({number})"
        candidate = name[: NAME_LENGTH - len(suffix)] + suffix
        if candidate not in taken:
            return candidate
        number += 1

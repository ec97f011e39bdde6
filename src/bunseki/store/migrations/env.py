"""Alembic environment: runs the migrations on the connection `bunseki.store.db.alembic_config` hands over."""

from __future__ import annotations

from typing import Literal

from alembic import context
from alembic.autogenerate.api import AutogenContext

from bunseki.store.models import Base, UTCDateTime


def render_item(type_: str, item: object, _context: AutogenContext) -> str | Literal[False]:
    """Write our UTC timestamp type as the plain column type, so no migration imports the models."""
    if type_ == "type" and isinstance(item, UTCDateTime):
        return "sa.DateTime(timezone=True)"
    return False


connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError("run migrations through bunseki.store.migrate(engine), which supplies the connection")
context.configure(
    connection=connection,
    target_metadata=Base.metadata,
    # SQLite alters tables by copying them; on PostgreSQL batch operations are plain ALTERs.
    render_as_batch=True,
    render_item=render_item,
)
with context.begin_transaction():
    context.run_migrations()

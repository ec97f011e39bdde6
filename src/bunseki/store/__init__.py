"""Persistence on SQLite or PostgreSQL: users, sessions, turns, messages, steps, snapshots, artifacts,
reports, EDA runs, knowledge conversations.

`Store` is the only entry point; it returns the frozen models of `bunseki.domain` and raises
`bunseki.errors` types. The schema comes from the Alembic migrations shipped in ``migrations/``,
applied by `migrate`.
"""

from bunseki.store.db import make_engine, migrate
from bunseki.store.repository import SessionChanges, Store

__all__ = ["SessionChanges", "Store", "make_engine", "migrate"]

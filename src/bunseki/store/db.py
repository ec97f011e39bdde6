"""Engines for SQLite and PostgreSQL, configured alike for the store, and the schema migrations."""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path
from typing import Any, Final

from alembic import command
from alembic.config import Config
from sqlalchemy import Connection, Engine, create_engine, event, make_url, text
from sqlalchemy.engine import URL

MIGRATIONS: Final = "bunseki.store:migrations"
BUSY_TIMEOUT_MS: Final = 30_000
_POSTGRES_ALIASES: Final = {"postgres", "postgresql"}
_MIGRATION_LOCK: Final = int.from_bytes(b"bunseki")  # any bigint that no other program uses as a lock key


def make_engine(url: str) -> Engine:
    """An engine for ``url``; plain postgresql:// and postgres:// URLs use psycopg 3."""
    parsed = make_url(url)
    if parsed.drivername in _POSTGRES_ALIASES:
        parsed = parsed.set(drivername="postgresql+psycopg")
    # Japanese text stays readable in the JSON columns instead of becoming \u escapes.
    options: dict[str, Any] = {"json_serializer": lambda value: json.dumps(value, ensure_ascii=False)}
    if parsed.get_backend_name() != "sqlite":
        return create_engine(parsed, pool_pre_ping=True, **options)
    _create_parent(parsed)
    engine = create_engine(parsed, connect_args={"check_same_thread": False}, **options)
    event.listen(engine, "connect", _configure_sqlite)
    event.listen(engine, "begin", _begin_immediate)
    return engine


def alembic_config(connection: Connection) -> Config:
    """An Alembic configuration that runs the packaged migrations on ``connection`` (no alembic.ini)."""
    config = Config()
    config.set_main_option("script_location", MIGRATIONS)
    config.attributes["connection"] = connection
    return config


def migrate(engine: Engine) -> None:
    """Bring the schema up to the newest migration; a database already there is left alone."""
    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            # Processes that start together (API workers) migrate one after the other; the later
            # ones find nothing left to do. SQLite's BEGIN IMMEDIATE already serialises them.
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _MIGRATION_LOCK})
        command.upgrade(alembic_config(connection), "head")


def _create_parent(url: URL) -> None:
    database = url.database or ""
    if database and database != ":memory:" and not database.startswith("file:"):
        Path(database).parent.mkdir(parents=True, exist_ok=True)


def _configure_sqlite(dbapi_connection: sqlite3.Connection, _record: object) -> None:
    # SQLite leaves foreign keys (and so ON DELETE) off unless each connection asks. No isolation
    # level: _begin_immediate issues BEGIN.
    dbapi_connection.isolation_level = None
    dbapi_connection.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
    dbapi_connection.execute("PRAGMA foreign_keys=ON")
    _use_wal(dbapi_connection)


def _use_wal(dbapi_connection: sqlite3.Connection) -> None:
    """Switch the file to WAL (it stays so): cheap commits, and other programs may read meanwhile."""
    # On a new file the switch needs a lock that SQLite refuses at once, without the busy timeout,
    # while another connection (a migration) writes; that write is short, so try again.
    deadline = time.monotonic() + BUSY_TIMEOUT_MS / 1000
    while True:
        try:
            dbapi_connection.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) or time.monotonic() > deadline:
                raise
            time.sleep(0.01)


def _begin_immediate(connection: Connection) -> None:
    # Take the write lock when the transaction starts, not at its first write: a transaction that
    # read first (position = max + 1) and then found the lock taken could only fail, never wait.
    connection.exec_driver_sql("BEGIN IMMEDIATE")

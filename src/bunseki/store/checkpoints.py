"""LangGraph checkpointers on the store's own database, so a paused graph resumes from any process.

SQLite: the checkpoint tables live in the store's file, next to its tables (WAL lets both write in
turn). PostgreSQL: the same server and database, through a small psycopg pool. Graph state is
serialised as msgpack, each pydantic model under its module and class name; the types Bunseki keeps
in state are registered, so loading them needs no pickle and warns about nothing. A type that moved
is registered under its former module too (which must still give it under its name): runs paused
before the move are read as they were written.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any, Final

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer
from sqlalchemy import make_url

from bunseki.errors import StorageError
from bunseki.store.db import BUSY_TIMEOUT_MS

_SETUP_LOCK: Final = int.from_bytes(b"bunsekc")
SETUP_POLL_S: Final = 0.1  # another advisory-lock key than the store's migrations
POOL_SIZE: Final = 4


def serializer(types: Iterable[type[Any]] = (), formerly: Iterable[tuple[str, str]] = ()) -> JsonPlusSerializer:
    """A msgpack serializer that restores ``types`` (pydantic models kept in graph state), and the
    (module, class name) pairs of ``formerly``: where some of them were when older checkpoints were written."""
    return JsonPlusSerializer(
        allowed_msgpack_modules=[*((kind.__module__, kind.__name__) for kind in types), *formerly]
    )


@contextmanager
def open_checkpointer(
    url: str, *, types: Iterable[type[Any]] = (), formerly: Iterable[tuple[str, str]] = ()
) -> Iterator[BaseCheckpointSaver[Any]]:
    """A checkpointer on the database at ``url`` (the store's SQLAlchemy URL), tables created if needed;
    ``types`` and ``formerly`` as for `serializer`.

    Raises:
        StorageError: the database cannot be opened or its checkpoint tables cannot be created.
    """
    parsed = make_url(url)
    serde = serializer(types, formerly)
    backend = parsed.get_backend_name()
    if backend == "sqlite":
        with _sqlite(parsed.database or ":memory:", serde) as saver:
            yield saver
    elif backend == "postgresql":
        libpq = parsed.set(drivername="postgresql").render_as_string(hide_password=False)
        with _postgres(libpq, serde) as saver:
            yield saver
    else:
        raise StorageError(f"Paused runs cannot be kept in a {backend} database; use SQLite or PostgreSQL.")


@contextmanager
def _sqlite(path: str, serde: JsonPlusSerializer) -> Iterator[BaseCheckpointSaver[Any]]:
    from langgraph.checkpoint.sqlite import SqliteSaver

    try:
        connection = sqlite3.connect(path, check_same_thread=False, timeout=BUSY_TIMEOUT_MS / 1000)
        connection.execute("PRAGMA journal_mode=WAL")
        saver = SqliteSaver(connection, serde=serde)
        saver.setup()
    except sqlite3.Error as error:
        raise StorageError(f"The checkpoint tables in {path} cannot be used: {error}.") from error
    try:
        yield saver
    finally:
        connection.close()


@contextmanager
def _postgres(libpq: str, serde: JsonPlusSerializer) -> Iterator[BaseCheckpointSaver[Any]]:
    import psycopg
    from langgraph.checkpoint.postgres import PostgresSaver
    from psycopg.rows import dict_row
    from psycopg_pool import ConnectionPool

    options = {"autocommit": True, "prepare_threshold": 0, "row_factory": dict_row}
    try:
        pool = ConnectionPool(libpq, min_size=1, max_size=POOL_SIZE, kwargs=options, open=True)
    except psycopg.Error as error:
        raise StorageError(f"The PostgreSQL server for paused runs cannot be reached: {error}.") from error
    try:
        saver = PostgresSaver(pool, serde=serde)  # type: ignore[arg-type]
        with pool.connection() as connection:
            # Processes that start together create the tables one after the other. The lock is
            # polled, not waited for: a waiting statement holds a snapshot, and the holder's
            # CREATE INDEX CONCURRENTLY (on another connection) waits for every snapshot to end.
            while not _try_lock(connection):
                time.sleep(SETUP_POLL_S)
            try:
                saver.setup()
            finally:
                connection.execute("SELECT pg_advisory_unlock(%s)", (_SETUP_LOCK,))
        yield saver
    except psycopg.OperationalError as error:
        raise StorageError(f"The PostgreSQL server for paused runs cannot be used: {error}.") from error
    finally:
        pool.close()


def _try_lock(connection: Any) -> bool:
    row = connection.execute("SELECT pg_try_advisory_lock(%s) AS locked", (_SETUP_LOCK,)).fetchone()
    return bool(row and row["locked"])

"""`EpochReader`: a session's fencing epoch, read over one kept connection (checked before every write).

The Ray backend's session actor asks for its session's epoch before every call that can write state,
so this read sits on every cell's path. Through the ORM it costs a pool checkout (with a ping on
PostgreSQL), a transaction (``BEGIN IMMEDIATE`` on SQLite: the database's write lock) and a commit:
four round trips on PostgreSQL. Here it is one statement on a connection kept for it, in autocommit
mode, so every read sees the newest committed epoch; PostgreSQL prepares it after a few runs.
"""

from __future__ import annotations

import threading
from typing import Any

from sqlalchemy import Engine, bindparam, select
from sqlalchemy.pool import PoolProxiedConnection

from bunseki.store.models import SessionEpoch

_QUERY = select(SessionEpoch.epoch).where(SessionEpoch.session_id == bindparam("session_id"))


class EpochReader:
    """Reads ``session_epochs`` for one engine; a broken connection is replaced once per read."""

    def __init__(self, engine: Engine) -> None:
        self._engine = engine
        compiled = _QUERY.compile(dialect=engine.dialect)
        self._sql = compiled.string
        self._positional = bool(compiled.positional)
        self.errors: tuple[type[Exception], ...] = (engine.dialect.loaded_dbapi.Error,)
        self._connection: PoolProxiedConnection | None = None
        self._lock = threading.Lock()  # one statement at a time on the kept connection

    def current(self, session_id: str) -> int:
        """The session's newest epoch (0: none taken yet); raises one of ``errors`` if it fails twice."""
        parameters: Any = (session_id,) if self._positional else {"session_id": session_id}
        with self._lock:
            try:
                return self._read(parameters)
            except self.errors:  # the kept connection broke (a server restart): once more on a new one
                self._drop()
                return self._read(parameters)

    def close(self) -> None:
        with self._lock:
            self._drop()

    def _read(self, parameters: Any) -> int:
        cursor = self._kept().cursor()
        try:
            cursor.execute(self._sql, parameters)
            row = cursor.fetchone()
        finally:
            cursor.close()
        return int(row[0]) if row is not None else 0

    def _kept(self) -> PoolProxiedConnection:
        if self._connection is None:
            connection = self._engine.raw_connection()
            driver: Any = connection.driver_connection
            connection.detach()  # ours alone, closed by us: the pool never sees it in autocommit mode
            if self._engine.dialect.name == "postgresql":
                driver.rollback()  # the pool's ping may have opened a transaction
                driver.autocommit = True
            # SQLite: db.make_engine's connections are in autocommit mode already (isolation_level None).
            self._connection = connection
        return self._connection

    def _drop(self) -> None:
        connection, self._connection = self._connection, None
        if connection is not None:
            try:
                connection.close()
            except self.errors:  # already broken; nothing to give back
                pass

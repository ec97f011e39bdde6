"""make_engine: driver choice for PostgreSQL URLs, and how every SQLite connection is set up."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bunseki.errors import StorageError
from bunseki.settings import Settings
from bunseki.store import Store, make_engine
from bunseki.store.db import BUSY_TIMEOUT_MS


@pytest.mark.parametrize(
    "url",
    [
        "postgresql://bunseki:secret@db.example:5432/bunseki",
        "postgres://bunseki:secret@db.example:5432/bunseki",
        "postgresql+psycopg://bunseki:secret@db.example:5432/bunseki",
    ],
)
def test_postgres_urls_use_psycopg_3(url: str) -> None:
    engine = make_engine(url)  # no connection is made until one is needed
    assert engine.url.drivername == "postgresql+psycopg"
    assert engine.url.render_as_string(hide_password=False).endswith("bunseki:secret@db.example:5432/bunseki")
    engine.dispose()


def test_sqlite_parent_directories_are_created(tmp_path: Path) -> None:
    path = tmp_path / "nested" / "deeper" / "bunseki.db"
    engine = make_engine(f"sqlite:///{path}")
    with engine.connect():
        pass
    engine.dispose()
    assert path.is_file()


def test_every_sqlite_connection_enforces_foreign_keys_and_uses_wal(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'bunseki.db'}")
    connections = [engine.raw_connection() for _ in range(2)]  # two pooled connections, both set up
    for connection in connections:
        cursor = connection.cursor()
        assert cursor.execute("PRAGMA foreign_keys").fetchone() == (1,)
        assert cursor.execute("PRAGMA journal_mode").fetchone() == ("wal",)
        assert cursor.execute("PRAGMA busy_timeout").fetchone() == (BUSY_TIMEOUT_MS,)
        connection.close()
    engine.dispose()


def test_sqlite_transactions_hold_the_write_lock_from_their_start(tmp_path: Path) -> None:
    path = tmp_path / "bunseki.db"
    engine = make_engine(f"sqlite:///{path}")
    other = sqlite3.connect(path, timeout=0, isolation_level=None)
    with engine.begin(), pytest.raises(sqlite3.OperationalError, match="locked"):
        other.execute("BEGIN IMMEDIATE")
    other.execute("BEGIN IMMEDIATE")  # free again once the transaction ended
    other.execute("ROLLBACK")
    other.close()
    engine.dispose()


def test_store_from_settings_uses_sqlite_under_the_workspace_root(tmp_path: Path) -> None:
    settings = Settings(workspace_root=tmp_path / "workspace")
    with Store.from_settings(settings) as store:
        user, _ = store.create_user("山田")
    assert (tmp_path / "workspace" / "bunseki.db").is_file()
    with Store.from_settings(settings) as store:
        assert store.list_users() == [user]


def test_an_unreachable_database_is_a_storage_error_without_the_password() -> None:
    with pytest.raises(StorageError, match="BUNSEKI_DATABASE_URL") as raised:
        Store("postgresql://bunseki:hunter2@127.0.0.1:1/bunseki")
    assert "hunter2" not in str(raised.value)
    assert "127.0.0.1:1" in str(raised.value)


def test_a_database_file_that_cannot_be_created_is_a_storage_error(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    with pytest.raises(StorageError, match="cannot be created"):
        Store(f"sqlite:///{blocker / 'bunseki.db'}")

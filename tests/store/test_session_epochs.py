"""Fencing epochs: every take is a new, larger epoch, also when many starts race; reads see the newest."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from sqlalchemy import Engine, text

from bunseki.store import Store


def test_a_session_without_a_start_has_epoch_zero(store: Store) -> None:
    assert store.current_epoch("never-started") == 0


def test_each_take_is_the_next_epoch_and_records_its_holder(store: Store, raw: Engine) -> None:
    assert store.take_epoch("s1", "node-a/100") == 1
    assert store.take_epoch("s1", "node-b/200") == 2
    assert store.take_epoch("s2", "node-a/101") == 1  # sessions count apart
    assert store.current_epoch("s1") == 2
    assert store.current_epoch("s2") == 1
    with raw.connect() as connection:
        holder = connection.execute(text("SELECT holder FROM session_epochs WHERE session_id = 's1'")).scalar_one()
    assert holder == "node-b/200"


def test_starts_racing_for_one_session_get_distinct_epochs(database_url: str, store: Store) -> None:
    threads = 6
    barrier = threading.Barrier(threads)

    def take(index: int) -> int:
        with Store(database_url, migrate=False) as own:
            barrier.wait()
            return own.take_epoch("raced", f"holder-{index}")

    with ThreadPoolExecutor(threads) as pool:
        epochs = list(pool.map(take, range(threads)))
    assert sorted(epochs) == list(range(1, threads + 1))
    assert store.current_epoch("raced") == threads


def test_the_kept_connection_sees_an_epoch_taken_elsewhere_after_its_first_read(
    database_url: str, store: Store
) -> None:
    store.take_epoch("watched", "node-a/1")
    assert store.current_epoch("watched") == 1  # the reader's connection is kept from here on
    with Store(database_url, migrate=False) as other:
        assert other.take_epoch("watched", "node-b/2") == 2
    assert store.current_epoch("watched") == 2


def test_a_fencing_read_leaves_no_transaction_open(store: Store, raw: Engine) -> None:
    if raw.dialect.name != "postgresql":
        pytest.skip("SQLite: db.make_engine's connections are in autocommit mode; nothing can stay open")
    store.take_epoch("open", "node-a/1")
    assert store.current_epoch("open") == 1
    with raw.connect() as connection:
        open_transactions = connection.execute(
            text(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                "AND state LIKE 'idle in transaction%'"
            )
        ).scalar_one()
    assert open_transactions == 0


def test_a_broken_kept_connection_is_replaced_on_the_next_read(database_url: str, store: Store, raw: Engine) -> None:
    store.take_epoch("reconnect", "node-a/1")
    assert store.current_epoch("reconnect") == 1
    if raw.dialect.name == "postgresql":  # the server ends the reader's session, as a restart would
        with raw.connect() as connection:
            ended = connection.execute(
                text(
                    "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                    "WHERE datname = current_database() AND pid <> pg_backend_pid() AND state = 'idle'"
                )
            ).scalar_one()
        assert ended >= 1
    else:  # SQLite has no server: the reader's connection is closed under it instead
        kept = store._epochs._connection if store._epochs is not None else None
        assert kept is not None and kept.dbapi_connection is not None
        kept.dbapi_connection.close()
    store.take_epoch("reconnect", "node-b/2")
    assert store.current_epoch("reconnect") == 2

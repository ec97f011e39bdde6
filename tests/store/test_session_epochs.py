"""Fencing epochs: every take is a new, larger epoch, also when many starts race; reads see the newest."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

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

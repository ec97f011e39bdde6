"""Replicas' heartbeats: written and aged by the database's clock, gone on a clean stop, pruned when long silent."""

from __future__ import annotations

from datetime import datetime

import pytest
from sqlalchemy import Engine, event, text

from bunseki.store import Store
from tests.support import age_beat


def test_a_beat_is_fresh_and_ages_by_the_database_clock(store: Store, raw: Engine) -> None:
    assert store.beat_ages(["host-a:10:99"]) == {}  # never seen: no age at all, not zero
    store.beat("host-a:10:99")
    fresh = store.beat_ages(["host-a:10:99", "host-b:11:99"])
    assert set(fresh) == {"host-a:10:99"} and 0 <= fresh["host-a:10:99"] < 5
    age_beat(raw, "host-a:10:99", 90)
    assert store.beat_ages(["host-a:10:99"])["host-a:10:99"] == pytest.approx(90, abs=5)
    store.beat("host-a:10:99")  # the next beat makes it fresh again: one row per process
    assert store.beat_ages(["host-a:10:99"])["host-a:10:99"] < 5
    with raw.connect() as connection:
        assert connection.execute(text("SELECT count(*) FROM replicas")).scalar_one() == 1


def test_the_time_of_a_beat_is_the_databases_not_the_replicas(store: Store) -> None:
    sent: list[tuple[str, object]] = []

    def record(_conn: object, _cursor: object, statement: str, parameters: object, *_: object) -> None:
        sent.append((statement, parameters))

    engine = store._engine
    event.listen(engine, "before_cursor_execute", record)
    try:
        store.beat("host-a:10:99")
    finally:
        event.remove(engine, "before_cursor_execute", record)
    upsert = next(statement for statement, _ in sent if statement.lstrip().upper().startswith("INSERT"))
    assert ("now()" if engine.dialect.name == "postgresql" else "strftime(") in upsert
    values = [v for _, p in sent for v in (p.values() if isinstance(p, dict) else p if isinstance(p, tuple) else ())]
    assert not any(isinstance(value, datetime) for value in values)  # no clock of this process is sent


def test_a_clean_stop_removes_only_its_own_row(store: Store) -> None:
    store.beat("host-a:10:99")
    store.beat("host-b:20:99")
    store.forget_replica("host-a:10:99")
    assert set(store.beat_ages(["host-a:10:99", "host-b:20:99"])) == {"host-b:20:99"}
    store.forget_replica("host-a:10:99")  # already gone: nothing to do, no error


def test_whoever_beats_forgets_processes_silent_for_long(store: Store, raw: Engine) -> None:
    store.beat("gone:1:1")
    store.beat("quiet:2:2")
    age_beat(raw, "gone:1:1", 2 * 3600)
    age_beat(raw, "quiet:2:2", 600)  # stale for turns, but not old enough to forget
    assert set(store.beat_ages(["gone:1:1", "quiet:2:2"])) == {"gone:1:1", "quiet:2:2"}  # reading prunes nothing
    store.beat("live:3:3")
    assert set(store.beat_ages(["gone:1:1", "quiet:2:2", "live:3:3"])) == {"quiet:2:2", "live:3:3"}
    store.beat("live:3:3", forget_after_s=300)
    assert set(store.beat_ages(["quiet:2:2", "live:3:3"])) == {"live:3:3"}

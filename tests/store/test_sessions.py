"""Sessions: creation, ownership, listing, updates, timestamps and deletion with everything in them."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import pytest
from pydantic import ValidationError
from sqlalchemy import Engine, text

from bunseki.domain import Session
from bunseki.errors import NotFound
from bunseki.store import Store

SessionFactory = Callable[..., Session]
SESSION_TABLES = ("turns", "messages", "steps", "snapshots", "artifacts", "reports")


def test_create_session_keeps_every_field(store: Store, make_session: SessionFactory) -> None:
    before = datetime.now(UTC)
    created = make_session(dataset_encoding=None, dataset_format="excel", dataset_name="顧客一覧.xlsx")
    assert created.title == "売上の分析"
    assert created.dataset_name == "顧客一覧.xlsx"
    assert created.dataset_path == "data/売上.csv"
    assert (created.dataset_format, created.dataset_encoding) == ("excel", None)
    assert (created.dataset_rows, created.dataset_columns) == (120, 5)
    assert created.workspace == "/srv/bunseki/workspace/売上"
    assert created.model == "offline"
    assert created.user_id is None
    assert before <= created.created_at <= datetime.now(UTC)
    assert created.updated_at == created.created_at
    assert store.get_session(created.id) == created


def test_timestamps_come_back_timezone_aware_in_utc(store: Store, session: Session) -> None:
    fetched = store.get_session(session.id)
    for moment in (fetched.created_at, fetched.updated_at):
        assert moment.tzinfo is not None
        assert moment.utcoffset() == timedelta(0)


def test_sqlite_stores_utc_wall_time(store: Store, raw: Engine, session: Session) -> None:
    if raw.dialect.name != "sqlite":
        pytest.skip("SQLite keeps timestamps as text")
    with raw.connect() as connection:
        stored = connection.execute(text("SELECT created_at FROM sessions")).scalar_one()
    assert stored == session.created_at.strftime("%Y-%m-%d %H:%M:%S.%f")


def test_postgres_connection_time_zone_does_not_change_the_timestamps(
    database_url: str, raw: Engine, session: Session
) -> None:
    if raw.dialect.name != "postgresql":
        pytest.skip("only PostgreSQL converts timestamps to the connection's time zone")
    with raw.begin() as connection:
        connection.exec_driver_sql(f"ALTER DATABASE \"{raw.url.database}\" SET timezone TO 'Asia/Tokyo'")
    with Store(database_url) as tokyo:
        fetched = tokyo.get_session(session.id)
    assert fetched.created_at == session.created_at
    assert fetched.created_at.utcoffset() == timedelta(0)


def test_records_are_frozen(session: Session) -> None:
    with pytest.raises(ValidationError):
        session.title = "変更"


def test_create_session_for_an_unknown_user_is_not_found(make_session: SessionFactory) -> None:
    with pytest.raises(NotFound):
        make_session(user_id="0" * 32)


def test_get_session_that_does_not_exist_is_not_found(store: Store) -> None:
    with pytest.raises(NotFound):
        store.get_session("0" * 32)


def test_get_session_of_another_user_is_not_found(store: Store, make_session: SessionFactory) -> None:
    alice, _ = store.create_user("alice")
    bob, _ = store.create_user("bob")
    owned = make_session(user_id=alice.id)
    unowned = make_session()
    assert store.get_session(owned.id, user_id=alice.id) == owned
    with pytest.raises(NotFound):
        store.get_session(owned.id, user_id=bob.id)
    with pytest.raises(NotFound):
        store.get_session(unowned.id, user_id=alice.id)
    assert store.get_session(owned.id) == owned  # no user given: no ownership check


def test_list_sessions_newest_first_and_per_user(store: Store, make_session: SessionFactory) -> None:
    alice, _ = store.create_user("alice")
    bob, _ = store.create_user("bob")
    first = make_session(user_id=alice.id, title="一")
    second = make_session(user_id=bob.id, title="二")
    third = make_session(user_id=alice.id, title="三")
    assert store.list_sessions() == [third, second, first]
    assert store.list_sessions(user_id=alice.id) == [third, first]
    assert store.list_sessions(user_id=bob.id) == [second]


def test_touch_session_updates_the_time_and_given_fields(store: Store, session: Session) -> None:
    touched = store.touch_session(session.id)
    assert touched.updated_at > session.updated_at
    assert touched.model_copy(update={"updated_at": session.updated_at}) == session

    changed = store.touch_session(session.id, title="四半期の売上", dataset_rows=99, dataset_encoding=None)
    assert (changed.title, changed.dataset_rows, changed.dataset_encoding) == ("四半期の売上", 99, None)
    assert changed.updated_at > touched.updated_at
    assert store.get_session(session.id) == changed


def test_touch_session_refuses_unknown_fields(store: Store, session: Session) -> None:
    with pytest.raises(TypeError, match="id"):
        store.touch_session(session.id, id="x" * 32)  # type: ignore[call-arg]
    assert store.get_session(session.id) == session


def test_touch_session_that_does_not_exist_is_not_found(store: Store) -> None:
    with pytest.raises(NotFound):
        store.touch_session("0" * 32, title="x")


def _count(raw: Engine, table: str, session_id: str) -> int:
    with raw.connect() as connection:
        query = text(f"SELECT count(*) FROM {table} WHERE session_id = :id")
        return int(connection.execute(query, {"id": session_id}).scalar_one())


def _fill(store: Store, session_id: str) -> None:
    turn = store.start_turn(session_id=session_id, question="地域別の売上は？", owner="test")
    store.add_message(session_id=session_id, role="user", content="地域別の売上は？", turn_id=turn.id)
    store.add_step(session_id=session_id, step_type="group_by", parameters={"by": "地域"}, result={}, turn_id=turn.id)
    store.add_snapshot(
        session_id=session_id, name="集計後", path="snapshots/1.parquet", rows=4, columns=2, step_position=1
    )
    store.add_artifact(session_id=session_id, path="artifacts/chart.png", kind="image", turn_id=turn.id)
    store.add_report(session_id=session_id, title="報告", conclusion="東日本が多い", content={}, turn_id=turn.id)
    store.add_unanswered(session_id=session_id, question="来年は？", reason="予測は範囲外", source="analyst")


def test_delete_session_removes_everything_in_it(store: Store, raw: Engine, make_session: SessionFactory) -> None:
    doomed, kept = make_session(), make_session()
    _fill(store, doomed.id)
    _fill(store, kept.id)
    assert all(_count(raw, table, doomed.id) == 1 for table in SESSION_TABLES)

    assert store.delete_session(doomed.id) == doomed
    with pytest.raises(NotFound):
        store.get_session(doomed.id)
    assert all(_count(raw, table, doomed.id) == 0 for table in SESSION_TABLES)
    assert all(_count(raw, table, kept.id) == 1 for table in SESSION_TABLES)
    # Unanswered questions outlive their session, detached from it.
    orphans = [item for item in store.list_unanswered() if item.session_id is None]
    assert [item.question for item in orphans] == ["来年は？"]
    assert len(store.list_unanswered()) == 2


def test_delete_session_of_another_user_is_not_found(store: Store, make_session: SessionFactory) -> None:
    alice, _ = store.create_user("alice")
    bob, _ = store.create_user("bob")
    owned = make_session(user_id=alice.id)
    with pytest.raises(NotFound):
        store.delete_session(owned.id, user_id=bob.id)
    assert store.get_session(owned.id) == owned
    assert store.delete_session(owned.id, user_id=alice.id) == owned
    assert store.list_sessions() == []


def test_delete_session_that_does_not_exist_is_not_found(store: Store) -> None:
    with pytest.raises(NotFound):
        store.delete_session("0" * 32)

"""Snapshot names are unique within a session: the store refuses a second one, and migration 0005
renames the duplicates an older database may hold before it adds the constraint."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from alembic import command
from sqlalchemy import Engine, text

from bunseki.domain import Session
from bunseki.errors import SnapshotNameTaken
from bunseki.store import Store, migrate
from bunseki.store.db import alembic_config


def _save(store: Store, session: Session, name: str, position: int = 1) -> str:
    path = f"snapshots/{position}.parquet"
    saved = store.add_snapshot(session_id=session.id, name=name, path=path, rows=1, columns=1, step_position=position)
    return saved.id


def test_a_second_snapshot_of_the_same_name_is_refused(store: Store, session: Session) -> None:
    _save(store, session, "東京のみ")
    with pytest.raises(SnapshotNameTaken, match="東京のみ"):
        _save(store, session, "東京のみ", 2)
    assert [s.name for s in store.list_snapshots(session.id)] == ["東京のみ"]
    assert store.snapshot_named(session.id, "東京のみ") is not None
    assert store.snapshot_named(session.id, "大阪のみ") is None


def test_the_same_name_in_another_session_is_fine(store: Store, make_session: Callable[..., Session]) -> None:
    mine, other = make_session(), make_session()
    _save(store, mine, "a")
    _save(store, other, "a")
    assert [s.name for s in store.list_snapshots(other.id)] == ["a"]


def test_the_database_itself_refuses_a_duplicate(store: Store, session: Session, raw: Engine) -> None:
    first = _save(store, session, "a")
    _save(store, session, "b", 2)
    with pytest.raises(Exception, match=r"(?i)unique|duplicate"), raw.begin() as connection:
        connection.execute(text("UPDATE snapshots SET name = 'b' WHERE id = :id"), {"id": first})


def test_migration_renames_existing_duplicates(store: Store, session: Session, raw: Engine) -> None:
    ids = [_save(store, session, name, position) for position, name in enumerate(["a", "x", "y", "a (2)", "z"])]
    with raw.begin() as connection:  # back to before 0005, where duplicates could be saved
        command.downgrade(alembic_config(connection), "0004")
        for snapshot_id in (ids[1], ids[2], ids[4]):
            connection.execute(text("UPDATE snapshots SET name = 'a' WHERE id = :id"), {"id": snapshot_id})
    migrate(raw)
    names = {s.id: s.name for s in store.list_snapshots(session.id)}
    # The first keeps its name; later ones are numbered in saving order, skipping "a (2)", which was taken.
    assert [names[snapshot_id] for snapshot_id in ids] == ["a", "a (3)", "a (4)", "a (2)", "a (5)"]
    with pytest.raises(SnapshotNameTaken):
        _save(store, session, "a", 9)

"""Every storage test runs on SQLite and on a fresh PostgreSQL database (``database_url``, in tests/conftest.py)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from sqlalchemy import Engine

from bunseki.domain import Session
from bunseki.store import Store, make_engine

SessionFactory = Callable[..., Session]


@pytest.fixture
def store(database_url: str) -> Iterator[Store]:
    with Store(database_url) as store:
        yield store


@pytest.fixture
def raw(store: Store, database_url: str) -> Iterator[Engine]:
    """A plain engine on the store's (migrated) database, to look at the tables behind its back."""
    engine = make_engine(database_url)
    yield engine
    engine.dispose()


@pytest.fixture
def make_session(store: Store) -> SessionFactory:
    """Creates sessions over a Japanese sales file; keyword arguments replace any field."""

    def make(**changes: Any) -> Session:
        fields: dict[str, Any] = {
            "title": "売上の分析",
            "dataset_name": "売上.csv",
            "dataset_path": "data/売上.csv",
            "dataset_format": "csv",
            "dataset_encoding": "cp932",
            "dataset_rows": 120,
            "dataset_columns": 5,
            "workspace": "/srv/bunseki/workspace/売上",
            "model": "offline",
        }
        return store.create_session(**(fields | changes))

    return make


@pytest.fixture
def session(make_session: SessionFactory) -> Session:
    return make_session()

"""The packaged migrations: from an empty database to models.py exactly, idempotent, reversible."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine, inspect

from bunseki.store import Store, make_engine, migrate
from bunseki.store.db import alembic_config
from bunseki.store.models import Base


def _tables(engine: Engine) -> set[str]:
    return set(inspect(engine).get_table_names())


def _revision(engine: Engine) -> str | None:
    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def _head(engine: Engine) -> str | None:
    with engine.connect() as connection:
        return ScriptDirectory.from_config(alembic_config(connection)).get_current_head()


def test_migrate_creates_every_table_in_an_empty_database(database_url: str) -> None:
    engine = make_engine(database_url)
    assert _tables(engine) == set()
    migrate(engine)
    assert _tables(engine) == {*Base.metadata.tables, "alembic_version"}
    assert _revision(engine) == _head(engine) == "0009"
    engine.dispose()


def test_migrate_again_changes_nothing(database_url: str) -> None:
    with Store(database_url) as store:
        user, _ = store.create_user("佐藤")
    engine = make_engine(database_url)
    migrate(engine)
    migrate(engine)
    assert _revision(engine) == "0009"
    engine.dispose()
    with Store(database_url) as store:
        assert store.list_users() == [user]


def test_migrated_schema_has_no_difference_from_the_models(database_url: str) -> None:
    engine = make_engine(database_url)
    migrate(engine)
    with engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        differences = compare_metadata(context, Base.metadata)
    engine.dispose()
    assert differences == []


def test_the_models_differ_from_an_empty_database(database_url: str) -> None:
    engine = make_engine(database_url)
    with engine.connect() as connection:
        differences = compare_metadata(MigrationContext.configure(connection), Base.metadata)
    engine.dispose()
    added = {difference[1].name for difference in differences if difference[0] == "add_table"}
    assert added == set(Base.metadata.tables)  # so the no-difference check above can fail


def test_store_without_migrate_leaves_the_schema_alone(database_url: str) -> None:
    with Store(database_url, migrate=False):
        pass
    engine = make_engine(database_url)
    assert _tables(engine) == set()
    engine.dispose()


def test_downgrade_to_base_removes_every_table(database_url: str) -> None:
    engine = make_engine(database_url)
    migrate(engine)
    with engine.begin() as connection:
        command.downgrade(alembic_config(connection), "base")
    assert _tables(engine) == {"alembic_version"}
    assert _revision(engine) is None
    migrate(engine)  # and up again
    assert _tables(engine) == {*Base.metadata.tables, "alembic_version"}
    engine.dispose()


def test_processes_starting_together_migrate_once(database_url: str) -> None:
    barrier = threading.Barrier(4)

    def start(_: int) -> None:
        barrier.wait()
        Store(database_url).close()

    with ThreadPoolExecutor(4) as pool:
        list(pool.map(start, range(4)))
    engine = make_engine(database_url)
    assert _revision(engine) == "0009"
    with engine.connect() as connection:
        assert connection.exec_driver_sql("SELECT count(*) FROM alembic_version").scalar_one() == 1
    engine.dispose()

"""Test isolation: every test gets its own workspace root and a clean BUNSEKI_* environment."""

from __future__ import annotations

import inspect
import os
import shutil
import tempfile
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pandas as pd
import pytest
from _pytest.nodeid import NodeId
from pydantic import AliasChoices
from sqlalchemy import Engine

from bunseki.brain.analyst.contract import AnalystBrain
from bunseki.samples import SALES_CSV
from bunseki.service import AnalysisService
from bunseki.settings import Settings
from bunseki.store import make_engine
from tests.workers import worker_sandbox_uid

# --- parallel runs (pytest-xdist, make test): what must share a worker, and what starts first ---

# Session fixtures that start or compute something slow (a model server, a corpus embedded with the
# real model): the tests that use one share a worker, so that it happens once per run, not per worker.
SHARED_ON_ONE_WORKER = ("real_model_url", "warm_cache", "warm_embeddings")


def _xdist_group(item: pytest.Item) -> str | None:
    """The worker group of ``item``: the slow session fixture it uses (by where that is defined), else
    its module (with the parameters of its module-scoped fixtures) when it uses a module- or class-scoped
    fixture that holds something until torn down (a generator: a sandbox, a service, replicas); None for
    a test that shares nothing costly, which may then run on any worker."""
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return None
    params = getattr(getattr(item, "callspec", None), "params", {})
    shared = []
    for name in info.names_closure:
        definitions = info.name2fixturedefs.get(name)
        if not definitions:
            continue
        if name in SHARED_ON_ONE_WORKER:
            return _group_name(f"{definitions[-1].baseid}-{name}")
        if definitions[-1].scope in ("package", "module", "class") and inspect.isgeneratorfunction(
            definitions[-1].func
        ):
            value = params.get(name, "")
            shared.append("-".join(map(str, value)) if isinstance(value, tuple) else str(value))
    if not shared:
        return None
    return _group_name("-".join([item.nodeid.split("::", 1)[0], *filter(None, shared)]))


def _group_name(text: str) -> str:
    return "".join(c if c.isalnum() or c in "/._-" else "_" for c in text)  # no '@' or ']': xdist parses them


def _distributed(config: pytest.Config) -> bool:
    """Whether this process is a worker of an xdist run that groups tests (``--dist loadgroup``)."""
    return hasattr(config, "workerinput") and bool(getattr(config.option, "loadgroup", False))


@pytest.hookimpl(trylast=True)  # after xdist's own hook, which names the groups of explicit marks
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Under ``--dist loadgroup``, tests that share a module fixture or a slow server share a worker.

    The scheduler reads a test's group off its id (``nodeid@group``). pytest 9.2 derives ``nodeid``
    from ``_id``, so xdist 3.8's own suffix (set on ``_nodeid``) is lost: the suffix is set here."""
    if not _distributed(config):
        return
    for item in items:
        marked = [
            str(mark.args[0] if mark.args else mark.kwargs.get("name", "default"))
            for mark in item.iter_markers("xdist_group")
        ]
        group = "_".join(sorted(set(marked))) if marked else _xdist_group(item)
        if group is None or _xdist_unit(item.nodeid) == group:
            continue
        item._id = NodeId.parse(f"{item.nodeid}@{group}")  # type: ignore[attr-defined]
        if _xdist_unit(item.nodeid) != group:
            raise pytest.UsageError(f"cannot put {item.nodeid} into the xdist group {group}: pytest changed")


@pytest.hookimpl(tryfirst=True)  # before xdist sends the collection to the controller
def pytest_collection_finish(session: pytest.Session) -> None:
    """Under ``--dist loadgroup``: work units that declare a longer time bound than the suite's go out
    first (longest first), then units with a slow test, then groups by size, then single tests in their
    order, so that the longest ones overlap the rest instead of trailing it. xdist hands units out in
    collection order when started with ``--no-loadscope-reorder``."""
    if not _distributed(session.config):
        return
    units: dict[str, list[pytest.Item]] = {}
    for item in session.items:
        units.setdefault(_xdist_unit(item.nodeid), []).append(item)
    ranked = sorted(
        enumerate(units.values()),
        key=lambda pair: (-_time_bound(pair[1]), not _slow(pair[1]), -len(pair[1]), pair[0]),
    )
    session.items[:] = [item for _, unit in ranked for item in unit]


def _time_bound(unit: list[pytest.Item]) -> float:
    """The longest time bound (``pytest.mark.timeout``) a test of the unit declares; 0 for none."""
    bounds = [0.0]
    for item in unit:
        mark = item.get_closest_marker("timeout")
        if mark is not None:
            bounds.append(float(mark.args[0] if mark.args else mark.kwargs.get("timeout", 0)))
    return max(bounds)


def _slow(unit: list[pytest.Item]) -> bool:
    """A unit with a test marked slow, or one around a slow session fixture."""
    return any(item.get_closest_marker("slow") for item in unit) or any(
        name in SHARED_ON_ONE_WORKER for item in unit for name in getattr(item, "fixturenames", ())
    )


def _xdist_unit(nodeid: str) -> str:
    """The work unit xdist's loadgroup scheduler makes of a test: its group, or the test alone."""
    return nodeid.rsplit("@", 1)[-1] if nodeid.rfind("@") > nodeid.rfind("]") else nodeid


def _unprefixed_setting_variables() -> frozenset[str]:
    """The variables settings also read without the prefix (OPENAI_API_KEY, QDRANT_URL…)."""
    names: set[str] = set()
    for field in Settings.model_fields.values():
        alias = field.validation_alias
        choices = alias.choices if isinstance(alias, AliasChoices) else [alias]
        names.update(name for name in choices if isinstance(name, str) and not name.startswith("BUNSEKI_"))
    return frozenset(names)


UNPREFIXED_SETTING_VARIABLES = _unprefixed_setting_variables()


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """No setting leaks in from the machine running the tests (a provider's key included)."""
    for name in list(os.environ):
        if name.startswith("BUNSEKI_") or name in UNPREFIXED_SETTING_VARIABLES:
            monkeypatch.delenv(name)
    # Servers keep warm sandboxes for new sessions; tests that are about that ask for them.
    monkeypatch.setenv("BUNSEKI_SANDBOX_POOL_SIZE", "0")
    if (uid := worker_sandbox_uid()) is not None:
        monkeypatch.setenv("BUNSEKI_SANDBOX_UID", str(uid))
    monkeypatch.chdir(tempfile.gettempdir())  # so no .env file of the repository is read


@pytest.fixture
def workspace_root() -> Iterator[Path]:
    """A workspace root the sandbox user can reach (pytest's tmp_path is private to root)."""
    root = Path(tempfile.mkdtemp(prefix="bunseki-test-"))
    root.chmod(0o711)
    yield root
    shutil.rmtree(root, ignore_errors=True)


@pytest.fixture
def settings(workspace_root: Path) -> Settings:
    return Settings(workspace_root=workspace_root, sandbox_timeout_s=20)


# --- databases: SQLite, and PostgreSQL when make test (scripts/postgres.sh) started a server ---

# Read at import: the autouse clean_environment fixture removes BUNSEKI_* variables for each test.
POSTGRES_ADMIN_URL = os.environ.get("BUNSEKI_TEST_POSTGRES_URL") or None
NO_POSTGRES = "start PostgreSQL with scripts/postgres.sh (make test does)"


@pytest.fixture(scope="session")
def postgres_admin() -> Iterator[Engine]:
    """An autocommit engine on the server's maintenance database, to create and drop test databases."""
    if POSTGRES_ADMIN_URL is None:
        pytest.skip(NO_POSTGRES)
    engine = make_engine(POSTGRES_ADMIN_URL)
    yield engine.execution_options(isolation_level="AUTOCOMMIT")
    engine.dispose()


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """The URL of an empty database that only this test uses."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'bunseki.db'}"
        return
    admin: Engine = request.getfixturevalue("postgres_admin")
    name = f"test_{uuid.uuid4().hex}"
    with admin.connect() as connection:
        connection.exec_driver_sql(f'CREATE DATABASE "{name}"')
    yield admin.url.set(database=name).render_as_string(hide_password=False)
    with admin.connect() as connection:
        connection.exec_driver_sql(f'DROP DATABASE "{name}" WITH (FORCE)')


# --- AnalysisService over a real sandbox and a real store (SQLite, and PostgreSQL under make test) ---

ServiceFactory = Callable[..., AnalysisService]


@pytest.fixture
def service_settings(settings: Settings, database_url: str) -> Settings:
    return settings.model_copy(update={"database_url": database_url})


@pytest.fixture
def open_service(service_settings: Settings) -> Iterator[ServiceFactory]:
    """Opens services on the test's database, as separate processes would; all are closed after."""
    opened: list[AnalysisService] = []

    def open_one(*, brain: AnalystBrain | None = None, warm: bool = False, **changes: object) -> AnalysisService:
        settings = service_settings.model_copy(update=changes)
        service = AnalysisService(settings, brains=(lambda _spec: brain) if brain is not None else None, warm=warm)
        opened.append(service)
        return service

    yield open_one
    for service in opened:
        service.close()


@pytest.fixture
def service(open_service: ServiceFactory) -> AnalysisService:
    return open_service()


@pytest.fixture(scope="session")
def sales() -> pd.DataFrame:
    """The bundled sample, read independently of Bunseki's loader."""
    return pd.read_csv(SALES_CSV, encoding="cp932")


from tests._killswitch import block_remote_model_requests  # noqa: E402, F401  (no test may reach a real model)

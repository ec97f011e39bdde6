"""Test isolation: every test gets its own workspace root and a clean BUNSEKI_* environment."""

from __future__ import annotations

import os
import shutil
import tempfile
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pandas as pd
import pytest
from sqlalchemy import Engine

from bunseki.brain.analyst.contract import AnalystBrain
from bunseki.samples import SALES_CSV
from bunseki.service import AnalysisService
from bunseki.settings import Settings
from bunseki.store import make_engine


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """No setting leaks in from the machine running the tests."""
    for name in list(os.environ):
        if name.startswith("BUNSEKI_"):
            monkeypatch.delenv(name)
    # Servers keep warm sandboxes for new sessions; tests that are about that ask for them.
    monkeypatch.setenv("BUNSEKI_SANDBOX_POOL_SIZE", "0")
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

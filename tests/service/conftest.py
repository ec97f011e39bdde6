"""`AnalysisService` over a real sandbox and a real store (SQLite, and PostgreSQL under make test)."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pandas as pd
import pytest

from bunseki.brain.base import Brain
from bunseki.samples import SALES_CSV
from bunseki.service import AnalysisService
from bunseki.settings import Settings

ServiceFactory = Callable[..., AnalysisService]


@pytest.fixture
def service_settings(settings: Settings, database_url: str) -> Settings:
    return settings.model_copy(update={"database_url": database_url})


@pytest.fixture
def open_service(service_settings: Settings) -> Iterator[ServiceFactory]:
    """Opens services on the test's database, as separate processes would; all are closed after."""
    opened: list[AnalysisService] = []

    def open_one(*, brain: Brain | None = None, **changes: object) -> AnalysisService:
        settings = service_settings.model_copy(update=changes)
        service = AnalysisService(settings, brains=(lambda _spec: brain) if brain is not None else None)
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

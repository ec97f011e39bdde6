"""EDA runs over a real sandbox and store, with a scripted brain (the real brains have their own tests)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from bunseki.service.eda import EdaService
from bunseki.settings import Settings
from tests.fakes.eda import ScriptedEdaBrain

SALES = "日付,地域,売上,数量\n" + "".join(
    f"2024-01-{day:02d},{region},{amount},{day % 4 + 1}\n"
    for day, (region, amount) in enumerate(
        [("関東", 120), ("関西", 80), ("関東", 150), ("九州", 60), ("関西", 95), ("関東", 130)], start=1
    )
)


@pytest.fixture
def sales_file(tmp_path: Path) -> Path:
    path = tmp_path / "売上.csv"
    path.write_bytes(SALES.encode("cp932"))
    return path


@pytest.fixture
def brain() -> ScriptedEdaBrain:
    return ScriptedEdaBrain()


@pytest.fixture
def eda_settings(settings: Settings, database_url: str) -> Settings:
    return settings.model_copy(update={"database_url": database_url})


@pytest.fixture
def make_service(eda_settings: Settings) -> Iterator[Callable[[ScriptedEdaBrain], EdaService]]:
    services: list[EdaService] = []

    def make(brain: ScriptedEdaBrain) -> EdaService:
        service = EdaService(eda_settings, brains=lambda spec: brain)
        services.append(service)
        return service

    yield make
    for service in services:
        service.close()


@pytest.fixture
def service(make_service: Callable[[ScriptedEdaBrain], EdaService], brain: ScriptedEdaBrain) -> EdaService:
    return make_service(brain)

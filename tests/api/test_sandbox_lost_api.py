"""A cell lost with its machine answers 503 with Retry-After, and asking again works."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from bunseki.api import create_app
from bunseki.service import AnalysisService
from bunseki.settings import Settings
from tests.api.conftest import PREFIX, ask_streamed, problem_of, start
from tests.fakes.backends import LosingBackend


@pytest.fixture
def losing(service_settings: Settings) -> Iterator[tuple[TestClient, LosingBackend]]:
    backend = LosingBackend(service_settings, lose={1, 2})
    service = AnalysisService(service_settings.model_copy(update={"api_single_user": True}), backend=backend)
    try:
        with TestClient(create_app(service=service)) as client:
            yield client, backend
    finally:
        service.close()
        backend.close()


def test_a_lost_cell_is_a_503_to_retry_and_the_next_ask_answers(losing: tuple[TestClient, LosingBackend]) -> None:
    client, backend = losing
    session = start(client)
    lost = client.post(f"{PREFIX}/sessions/{session}/chat", json={"message": "地域別の売上合計は？"})
    assert lost.status_code == 503 and lost.headers["Retry-After"] == "1"
    assert "ask again" in problem_of(lost)["detail"]

    received = ask_streamed(client, session, "地域別の売上合計は？")
    kind, error = received[-1]
    assert (kind, error["status"], error["retry_after"]) == ("error", 503, 1)
    assert "もう一度質問してください" in error["detail"]

    answered = client.post(f"{PREFIX}/sessions/{session}/chat", json={"message": "地域別の売上合計は？"})
    assert answered.status_code == 200 and answered.json()["status"] == "finalized", answered.text
    assert backend.executed == 3
    conversation = client.get(f"{PREFIX}/sessions/{session}/messages")
    assert conversation.status_code == 200
    assert [m["role"] for m in conversation.json()] == ["user", "assistant"] * 3


def test_health_reports_the_sandbox_backend(losing: tuple[TestClient, LosingBackend]) -> None:
    client, _ = losing
    health = client.get("/health").json()
    assert health["warm_sandboxes"] == 0
    assert health["sandbox_backend"]["backend"] == "local" and health["sandbox_backend"]["ok"] is True
    start_ = start(client)
    assert client.post(f"{PREFIX}/sessions/{start_}/chat", json={"message": "地域別の売上合計は？"}).status_code == 503
    assert client.get("/health").json()["sandbox_backend"]["sessions"] == 0  # the lost one was let go

"""The API in process (httpx through Starlette's TestClient) over a real service, store and sandbox."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from bunseki.api import create_app
from bunseki.samples import SALES_CSV
from bunseki.service import AnalysisService
from bunseki.settings import Settings

ClientFactory = Callable[..., TestClient]
PREFIX = "/api/v1/analysis"


@pytest.fixture
def app_for(service: AnalysisService) -> Iterator[ClientFactory]:
    """Clients of one app over the test's service, each with a new user's key (None: no key)."""
    clients: list[TestClient] = []
    app = create_app(service=service)

    def client(user: str | None = "alice", **options: object) -> TestClient:
        opened = TestClient(app, **options)  # type: ignore[arg-type]
        if user is not None:
            _, key = service.accounts.create(user)
            opened.headers["Authorization"] = f"Bearer {key}"
        clients.append(opened.__enter__())
        return opened

    yield client
    for opened in clients:
        opened.__exit__(None, None, None)


@pytest.fixture
def api(app_for: ClientFactory) -> TestClient:
    """A client with alice's key."""
    return app_for("alice")


@pytest.fixture
def single_user_settings(settings: Settings, database_url: str) -> Settings:
    return settings.model_copy(update={"database_url": database_url, "api_single_user": True})


def problem_of(response: Any) -> dict[str, Any]:
    """The problem document of an error response (a TestClient response), checked to be one."""
    assert response.headers["content-type"].startswith("application/problem+json"), response.text
    body: dict[str, Any] = response.json()
    assert body["status"] == response.status_code
    assert isinstance(body["title"], str) and body["title"]
    return body


def start(client: TestClient) -> str:
    """A new session over the sample sales table; its id."""
    with SALES_CSV.open("rb") as handle:
        response = client.post(f"{PREFIX}/sessions", files={"file": (SALES_CSV.name, handle)})
    assert response.status_code == 201, response.text
    return str(response.json()["id"])


def ask(client: TestClient, session: str, message: str) -> dict[str, Any]:
    response = client.post(f"{PREFIX}/sessions/{session}/chat", json={"message": message})
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def events(text: str) -> list[tuple[str, dict[str, Any]]]:
    """Server-sent events as (event, data) pairs."""
    found = []
    for block in text.replace("\r\n", "\n").split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line and not line.startswith(":"))
        if "data" in fields:
            found.append((fields.get("event", "message"), json.loads(fields["data"])))
    return found


def ask_streamed(client: TestClient, session: str, message: str) -> list[tuple[str, dict[str, Any]]]:
    """The events of one chat message asked with Accept: text/event-stream, checked to be a stream."""
    with client.stream(
        "POST",
        f"{PREFIX}/sessions/{session}/chat",
        json={"message": message},
        headers={"Accept": "text/event-stream"},
    ) as response:
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        return events(response.read().decode())

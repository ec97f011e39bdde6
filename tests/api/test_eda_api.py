"""/api/v1/eda: start a run on an upload, answer its reviews (JSON and SSE), read its report and charts."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from bunseki.api import create_app
from bunseki.service import AnalysisService
from bunseki.service.eda import EdaService
from tests.api.conftest import problem_of
from tests.eda.conftest import SALES
from tests.fakes.eda import ScriptedEdaBrain

RUNS = "/api/v1/eda/runs"


@pytest.fixture
def clients(service: AnalysisService) -> Iterator[dict[str, TestClient]]:
    """alice's and bob's clients of one app whose EDA runs use a scripted brain."""
    eda = EdaService(service.settings, store=service.store, brains=lambda spec: ScriptedEdaBrain())
    app = create_app(service=service, eda=eda)
    opened: dict[str, TestClient] = {}
    for name in ("alice", "bob"):
        client = TestClient(app)
        _, key = service.accounts.create(name)
        client.headers["Authorization"] = f"Bearer {key}"
        opened[name] = client.__enter__()
    yield opened
    for client in opened.values():
        client.__exit__(None, None, None)
    eda.close()


def _start(client: TestClient, **form: str) -> dict[str, Any]:
    files = {"file": ("売上.csv", SALES.encode("cp932"), "text/csv")}
    response = client.post(RUNS, files=files, data=form)
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


def test_a_run_goes_from_upload_through_both_reviews_to_its_report(clients: dict[str, TestClient]) -> None:
    alice = clients["alice"]
    run = _start(alice, goal="売上の傾向")
    assert run["status"] == "awaiting_plan_review" and run["review"]["review"] == "plan"
    assert [step["title"] for step in run["plan"]] == ["売上の分布", "数量の分布"]
    assert run["profile"]["rows"] == 6 and "workspace" not in run
    run_id = run["run_id"]
    listed = alice.get(RUNS).json()
    assert [(item["run_id"], item["status"]) for item in listed] == [(run_id, "awaiting_plan_review")]

    run = alice.post(f"{RUNS}/{run_id}/resume", json={"action": "approve"}).json()
    assert run["status"] == "awaiting_results_review"
    chart = run["findings"][0]["artifacts"][0]
    assert chart.startswith(f"{RUNS}/{run_id}/artifacts/")
    image = alice.get(chart)
    assert image.status_code == 200 and image.content.startswith(b"\x89PNG")
    assert alice.get(f"{RUNS}/{run_id}/report").status_code == 409

    run = alice.post(f"{RUNS}/{run_id}/resume", json={"action": "approve"}).json()
    assert run["status"] == "completed" and run["report_path"] == f"{RUNS}/{run_id}/report?format=md"
    markdown = alice.get(f"{RUNS}/{run_id}/report", params={"format": "md"})
    assert markdown.status_code == 200 and "mean 105.833" in markdown.text
    html = alice.get(f"{RUNS}/{run_id}/report", params={"format": "html"})
    assert html.status_code == 200 and html.headers["content-type"].startswith("text/html")
    notebook = alice.get(f"{RUNS}/{run_id}/report", params={"format": "ipynb"})
    assert json.loads(notebook.content)["nbformat"] == 4


def test_resuming_a_run_that_waits_for_nothing_is_a_conflict(clients: dict[str, TestClient]) -> None:
    alice = clients["alice"]
    run_id = _start(alice)["run_id"]
    stopped = alice.post(f"{RUNS}/{run_id}/resume", json={"action": "stop"}).json()
    assert stopped["status"] == "stopped"
    again = alice.post(f"{RUNS}/{run_id}/resume", json={"action": "approve"})
    assert again.status_code == 409 and "not waiting" in problem_of(again)["detail"]


def test_bad_answers_are_refused_before_the_run_moves(clients: dict[str, TestClient]) -> None:
    alice = clients["alice"]
    run_id = _start(alice)["run_id"]
    assert alice.post(f"{RUNS}/{run_id}/resume", json={"action": "perhaps"}).status_code == 422
    empty = alice.post(f"{RUNS}/{run_id}/resume", json={"action": "feedback", "feedback": " "})
    assert empty.status_code == 422 and "feedback" in problem_of(empty)["detail"]
    assert alice.get(f"{RUNS}/{run_id}").json()["status"] == "awaiting_plan_review"


def test_other_peoples_runs_do_not_exist_for_you(clients: dict[str, TestClient]) -> None:
    run_id = _start(clients["alice"])["run_id"]
    bob = clients["bob"]
    assert bob.get(RUNS).json() == []
    for response in (
        bob.get(f"{RUNS}/{run_id}"),
        bob.post(f"{RUNS}/{run_id}/resume", json={"action": "approve"}),
        bob.get(f"{RUNS}/{run_id}/report"),
        bob.delete(f"{RUNS}/{run_id}"),
    ):
        assert response.status_code == 404, response.text
        problem_of(response)
    assert clients["alice"].delete(f"{RUNS}/{run_id}").status_code == 204
    assert clients["alice"].get(f"{RUNS}/{run_id}").status_code == 404


def test_an_unsupported_upload_is_refused(clients: dict[str, TestClient]) -> None:
    response = clients["alice"].post(RUNS, files={"file": ("notes.pdf", b"%PDF-1.4", "application/pdf")})
    assert response.status_code == 415
    problem_of(response)


def test_progress_streams_as_server_sent_events(clients: dict[str, TestClient]) -> None:
    alice = clients["alice"]
    run_id = _start(alice)["run_id"]
    with alice.stream(
        "POST", f"{RUNS}/{run_id}/resume", json={"action": "approve"}, headers={"Accept": "text/event-stream"}
    ) as response:
        assert response.status_code == 200
        lines = list(response.iter_lines())
    events = [line.removeprefix("event: ") for line in lines if line.startswith("event: ")]
    assert events[0] == "node_started" and events[-1] == "result"
    assert {"code", "execution", "finding"} <= set(events)
    result = json.loads(next(line for line in reversed(lines) if line.startswith("data: ")).removeprefix("data: "))
    assert result["status"] == "awaiting_results_review" and len(result["findings"]) == 2

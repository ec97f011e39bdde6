"""The chat endpoint: answers with their steps, report and files, streamed progress, and the data tools over HTTP."""

from __future__ import annotations

import io
import threading
from typing import Any

import pandas as pd
from fastapi.testclient import TestClient

from bunseki.service import AnalysisService
from tests.api.conftest import PREFIX, ClientFactory, ask, ask_streamed, problem_of, start
from tests.conftest import ServiceFactory
from tests.fakes.brains import GatedBrain


def test_chat_answers_with_steps_report_and_artifacts(api: TestClient, sales: pd.DataFrame) -> None:
    session = start(api)
    body = ask(api, session, "地域別の売上合計をグラフにして")
    assert set(body) >= {"message", "status", "steps_executed", "report", "artifacts"}
    assert body["status"] == "finalized"
    top = sales.groupby("地域")["売上金額"].sum().max()
    assert f"{top:,}" in body["message"]
    assert body["report"]["conclusion"] == body["message"]
    [step] = body["steps_executed"]
    assert step["step_type"] == "code" and "groupby" in step["parameters"]["code"]
    [chart] = body["artifacts"]
    assert chart["kind"] == "image" and chart["name"].endswith(".png")
    image = api.get(chart["url"])
    assert image.status_code == 200 and image.headers["content-type"] == "image/png"
    assert image.content.startswith(b"\x89PNG")

    markdown = api.get(f"{PREFIX}/sessions/{session}/report")
    assert markdown.headers["content-type"].startswith("text/markdown") and f"{top:,}" in markdown.text
    html = api.get(f"{PREFIX}/sessions/{session}/report", params={"format": "html"})
    assert html.headers["content-type"].startswith("text/html") and "data:image/png;base64," in html.text
    notebook = api.get(f"{PREFIX}/sessions/{session}/report", params={"format": "ipynb"})
    assert notebook.json()["nbformat"] == 4

    messages = api.get(f"{PREFIX}/sessions/{session}/messages").json()
    assert [(m["role"], m["content"]) for m in messages] == [
        ("user", "地域別の売上合計をグラフにして"),
        ("assistant", body["message"]),
    ]
    assert [s["step_type"] for s in api.get(f"{PREFIX}/sessions/{session}/steps").json()] == ["code"]


def test_chat_streams_progress_then_the_result(api: TestClient) -> None:
    received = ask_streamed(api, start(api), "売上金額の合計は？")
    names = [name for name, _ in received]
    assert names[0] == "turn_started" and names[-1] == "result"
    assert {"node_started", "node_finished", "decision", "code", "execution", "report", "turn_finished"} <= set(names)
    nodes = [data["node"] for name, data in received if name == "node_started"]
    assert nodes == ["reason", "code_exec", "reason", "report"]
    result = received[-1][1]
    assert result["status"] == "finalized" and result["message"]


def test_the_data_state_over_http(api: TestClient, sales: pd.DataFrame) -> None:
    session = start(api)
    kanto = sales[sales["地域"] == "関東"]
    narrowed = ask(api, session, "関東だけにして")
    assert [s["step_type"] for s in narrowed["steps_executed"]] == ["filter_data"]
    assert narrowed["steps_executed"][0]["rows_after"] == len(kanto)
    assert "加工後のデータ" in narrowed["data_state"]

    created = api.post(f"{PREFIX}/sessions/{session}/snapshots", json={"name": "関東のみ"})
    assert created.status_code == 201
    snapshot = created.json()
    assert (snapshot["name"], snapshot["rows"]) == ("関東のみ", len(kanto))
    assert [s["id"] for s in api.get(f"{PREFIX}/sessions/{session}/snapshots").json()] == [snapshot["id"]]

    csv = api.get(f"{PREFIX}/sessions/{session}/data")
    assert csv.headers["content-type"].startswith("text/csv")
    assert len(pd.read_csv(io.BytesIO(csv.content), encoding="utf-8-sig")) == len(kanto)

    reset = api.post(f"{PREFIX}/sessions/{session}/reset").json()
    assert reset["step"]["step_type"] == "reset" and reset["data_state"] == f"元のデータ（{len(sales):,} 行）"
    parquet = api.get(f"{PREFIX}/sessions/{session}/data", params={"format": "parquet"})
    assert len(pd.read_parquet(io.BytesIO(parquet.content))) == len(sales)

    restored = api.post(f"{PREFIX}/sessions/{session}/snapshots/{snapshot['id']}/restore").json()
    assert restored["step"]["rows_after"] == len(kanto) and "関東のみ" in restored["data_state"]
    assert api.get(f"{PREFIX}/sessions/{session}").json()["dataset"]["rows"] == len(kanto)
    total = ask(api, session, "売上金額の合計は？")
    assert f"{kanto['売上金額'].sum():,}" in total["message"]  # computed on the restored data
    steps = [s["step_type"] for s in api.get(f"{PREFIX}/sessions/{session}/steps").json()]
    assert steps == ["filter_data", "snapshot", "reset", "restore", "code"]


def test_bad_requests_are_problems(api: TestClient) -> None:
    session = start(api)
    for body in ({}, {"message": ""}, {"message": "x", "extra": 1}, {"message": 3}):
        response = api.post(f"{PREFIX}/sessions/{session}/chat", json=body)
        assert response.status_code == 422, body
        assert problem_of(response)["errors"]
    not_json = api.post(f"{PREFIX}/sessions/{session}/chat", content=b"{", headers={"content-type": "application/json"})
    assert problem_of(not_json)["status"] == 422
    assert problem_of(api.get(f"{PREFIX}/sessions/{session}/report"))["status"] == 404  # no report yet
    assert problem_of(api.get(f"{PREFIX}/sessions/{session}/report", params={"format": "pdf"}))["status"] == 422
    missing = api.post(f"{PREFIX}/sessions/{session}/snapshots/{'f' * 32}/restore")
    assert problem_of(missing)["status"] == 404
    assert problem_of(api.post(f"{PREFIX}/sessions/{session}/snapshots", json={"name": "  "}))["status"] == 422


def test_a_duplicate_snapshot_name_is_a_409_problem(api: TestClient) -> None:
    session = start(api)
    first = api.post(f"{PREFIX}/sessions/{session}/snapshots", json={"name": "関東のみ"})
    assert first.status_code == 201
    for name in ("関東のみ", "関東のみ  "):
        again = problem_of(api.post(f"{PREFIX}/sessions/{session}/snapshots", json={"name": name}))
        assert again["status"] == 409 and "関東のみ" in again["detail"]
    assert [s["id"] for s in api.get(f"{PREFIX}/sessions/{session}/snapshots").json()] == [first.json()["id"]]


def test_an_over_long_message_is_a_413_problem_before_any_work(api: TestClient) -> None:
    session = start(api)
    message = "売上 " * 2001  # 6,003 characters, over the default limit of 4,000
    for headers in ({}, {"Accept": "text/event-stream"}):
        refused = api.post(f"{PREFIX}/sessions/{session}/chat", json={"message": message}, headers=headers)
        problem = problem_of(refused)
        assert problem["status"] == 413 and "BUNSEKI_MAX_QUESTION_CHARS" in problem["detail"]
    assert api.get(f"{PREFIX}/sessions/{session}/messages").json() == []  # nothing was recorded or run


def test_a_busy_session_answers_409(open_service: ServiceFactory, service: AnalysisService) -> None:
    from bunseki.api import create_app

    brain = GatedBrain()
    gated = open_service(brain=brain)
    with TestClient(create_app(service=gated)) as client:
        _, key = gated.accounts.create("alice")
        client.headers["Authorization"] = f"Bearer {key}"
        session = start(client)
        first: list[dict[str, Any]] = []
        worker = threading.Thread(target=lambda: first.append(ask(client, session, "売上金額の合計は？")))
        worker.start()
        assert brain.entered.wait(30)
        busy = client.post(f"{PREFIX}/sessions/{session}/chat", json={"message": "数量の合計は？"})
        assert busy.status_code == 409 and "another message" in problem_of(busy)["detail"]
        streamed = client.post(
            f"{PREFIX}/sessions/{session}/chat",
            json={"message": "数量の合計は？"},
            headers={"Accept": "text/event-stream"},
        )
        assert streamed.status_code == 409  # refused before any event: a plain problem, not a stream
        assert problem_of(client.post(f"{PREFIX}/sessions/{session}/reset"))["status"] == 409
        brain.release.set()
        worker.join(60)
        assert first[0]["status"] == "finalized"
        roles = [m["role"] for m in client.get(f"{PREFIX}/sessions/{session}/messages").json()]
        assert roles == ["user", "assistant"]


def test_users_only_reach_their_own_sessions(app_for: ClientFactory) -> None:
    alice, bob = app_for("alice"), app_for("bob")
    session = start(alice)
    [chart] = ask(alice, session, "地域別の売上合計をグラフにして")["artifacts"]
    assert alice.get(chart["url"]).status_code == 200
    base = f"{PREFIX}/sessions/{session}"
    attempts = [
        ("GET", base, None),
        ("GET", f"{base}/messages", None),
        ("GET", f"{base}/steps", None),
        ("GET", f"{base}/snapshots", None),
        ("POST", f"{base}/snapshots", {"name": "mine"}),
        ("POST", f"{base}/reset", None),
        ("POST", f"{base}/chat", {"message": "売上金額の合計は？"}),
        ("GET", f"{base}/report", None),
        ("GET", f"{base}/data", None),
        ("GET", chart["url"], None),
        ("POST", f"{base}/snapshots/{'a' * 32}/restore", None),
        ("DELETE", base, None),
    ]
    for method, url, body in attempts:
        response = bob.request(method, url, json=body)
        assert response.status_code == 404, (method, url, response.text)
    assert bob.get(f"{PREFIX}/sessions").json() == []
    assert [s["id"] for s in alice.get(f"{PREFIX}/sessions").json()] == [session]
    assert len(alice.get(f"{base}/messages").json()) == 2  # bob's attempts changed nothing
    assert alice.get(f"{base}/steps").json()[-1]["step_type"] == "code"

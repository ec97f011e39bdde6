"""Who may do what: keys, revocation, single-user mode, artifact paths, and errors that say nothing inside."""

from __future__ import annotations

import os
from pathlib import Path

from fastapi.testclient import TestClient

from bunseki.api import create_app
from bunseki.samples import SALES_CSV
from bunseki.service import AnalysisService
from bunseki.settings import Settings
from tests.api.conftest import PREFIX, ClientFactory, problem_of


def start(client: TestClient) -> str:
    with SALES_CSV.open("rb") as handle:
        response = client.post(f"{PREFIX}/sessions", files={"file": (SALES_CSV.name, handle)})
    assert response.status_code == 201, response.text
    return str(response.json()["id"])


def test_requests_need_a_valid_key(app_for: ClientFactory, service: AnalysisService) -> None:
    anonymous = app_for(None)
    alice = app_for("alice")
    for headers in ({}, {"Authorization": "Bearer bk_wrong"}, {"Authorization": "Basic YWxpY2U6eA=="}):
        response = anonymous.get(f"{PREFIX}/sessions", headers=headers)
        assert response.status_code == 401, headers
        assert response.headers["www-authenticate"] == "Bearer"
        assert "key" in problem_of(response)["detail"]
    assert alice.get(f"{PREFIX}/sessions").status_code == 200
    service.accounts.revoke("alice")
    assert problem_of(alice.get(f"{PREFIX}/sessions"))["status"] == 401
    # health, the schema and the docs need no key
    assert anonymous.get(f"{PREFIX}/health").json()["status"] == "ok"
    assert anonymous.get("/health").status_code == 200
    assert "/api/v1/analysis/sessions/{session_id}/chat" in anonymous.get("/openapi.json").json()["paths"]
    assert "swagger" in anonymous.get("/docs").text.lower()


def test_single_user_mode_needs_no_key(single_user_settings: Settings) -> None:
    with TestClient(create_app(single_user_settings)) as client:
        session = start(client)
        assert [s["id"] for s in client.get(f"{PREFIX}/sessions").json()] == [session]


def test_artifact_names_cannot_leave_the_workspace(api: TestClient, service: AnalysisService, tmp_path: Path) -> None:
    session = start(api)
    chat = api.post(f"{PREFIX}/sessions/{session}/chat", json={"message": "地域別の売上合計をグラフにして"}).json()
    [chart] = chat["artifacts"]
    workspace = Path(service.get_session(session).workspace)
    secret = tmp_path / "secret.txt"
    secret.write_text("not for you")
    base = f"{PREFIX}/sessions/{session}/artifacts"
    for name in (
        "../../bunseki.db",
        "..%2F..%2Fbunseki.db",
        f"{secret}",
        "%2Fetc%2Fpasswd",
        "data/sales_cp932.csv",  # in the workspace, but not an artifact
        "snapshots/current.parquet",
    ):
        response = api.get(f"{base}/{name}")
        assert response.status_code in (404, 422), (name, response.status_code)
        assert "not for you" not in response.text and "SQLite" not in response.text
    # a recorded artifact replaced by a link (code in the sandbox can make one) is not followed
    target = workspace / chart["name"]
    target.unlink()
    os.symlink(secret, target)
    linked = api.get(chart["url"])
    assert linked.status_code == 404 and "not for you" not in linked.text
    # report files are served by their recorded names
    [report] = service.reports(session)
    served = api.get(f"{base}/{report.markdown_path}")
    assert served.status_code == 200 and report.conclusion in served.text


def test_unexpected_errors_are_500_problems_without_internals(service: AnalysisService) -> None:
    app = create_app(service=service)

    @app.get("/boom")
    def boom() -> None:
        raise RuntimeError("secret internals /etc/shadow")

    with TestClient(app, raise_server_exceptions=False) as client:
        response = client.get("/boom")
    body = problem_of(response)
    assert response.status_code == 500
    assert "secret" not in response.text and "Traceback" not in response.text
    assert body["instance"] == "/boom"

"""Two ``bunseki serve`` replicas over one PostgreSQL and one workspace root serve the same sessions.

A question through one continues the state a question through the other committed; progress streams
from either; a replica killed mid-turn loses nothing committed and leaves nothing half-applied.
"""

from __future__ import annotations

import shutil
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pandas as pd
import pytest
from sqlalchemy import Engine

from bunseki.samples import SALES_CSV
from bunseki.settings import Settings
from bunseki.store import Store
from tests.scale.replicas_support import CELL, HANG, PREFIX, Deployment, Replica
from tests.support import processes_in

# The module's replicas start in its first test: on a loaded machine, more than the suite's 300 s per test.
pytestmark = [pytest.mark.postgres, pytest.mark.slow, pytest.mark.timeout(900)]


# Where the replicas' sandboxes run: the settings every replica gets. Today, each replica's own child
# processes. For Ray, a module inside the cluster's network namespace imports these tests and overrides
# this fixture with {"BUNSEKI_SANDBOX_BACKEND": "ray", "BUNSEKI_RAY_ADDRESS": <the test cluster>}.
@pytest.fixture(scope="module", params=["local"])
def backend(request: pytest.FixtureRequest) -> dict[str, str]:
    return {"BUNSEKI_SANDBOX_BACKEND": str(request.param)}


@pytest.fixture(scope="module")
def postgres_url(postgres_admin: Engine) -> Iterator[str]:
    """An empty PostgreSQL database for this module's replicas (skipped without BUNSEKI_TEST_POSTGRES_URL)."""
    name = f"test_{uuid.uuid4().hex}"
    with postgres_admin.connect() as connection:
        connection.exec_driver_sql(f'CREATE DATABASE "{name}"')
    yield postgres_admin.url.set(database=name).render_as_string(hide_password=False)
    with postgres_admin.connect() as connection:
        connection.exec_driver_sql(f'DROP DATABASE "{name}" WITH (FORCE)')


@pytest.fixture(scope="module")
def deployment(
    postgres_url: str, backend: dict[str, str], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Deployment]:
    """One deployment for the module's tests (each test works on sessions of its own)."""
    root = Path(tempfile.mkdtemp(prefix="bunseki-test-"))
    root.chmod(0o711)  # the sandbox user walks down to its workspace (pytest's tmp_path is private to root)
    deployed = Deployment(postgres_url, root, backend, tmp_path_factory.mktemp("replicas"))
    try:
        yield deployed
    finally:
        deployed.stop()
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(scope="module")
def api_key(deployment: Deployment) -> str:
    return deployment.create_key("alice")  # one user table: a key made once opens every replica


@pytest.fixture
def replicas(deployment: Deployment, api_key: str) -> tuple[Replica, Replica]:
    """Two live replicas: the module's, with any a test killed replaced."""
    a, b = deployment.running(2, api_key)
    return a, b


def total(frame: pd.DataFrame) -> str:
    return f"{frame['売上金額'].sum():,}"


def printed(answer: dict[str, Any]) -> str:
    """What the turn's last cell printed."""
    cells = [step for step in answer["steps_executed"] if step["step_type"] == "code"]
    assert cells, answer
    return str(cells[-1]["result"]["stdout"]).strip()


def test_a_session_continues_through_either_replica(replicas: tuple[Replica, Replica], sales: pd.DataFrame) -> None:
    a, b = replicas
    kanto = sales[sales["地域"] == "関東"]
    session = a.upload(SALES_CSV)
    assert a.ask(session, "地域は関東だけにして")["status"] == "finalized"

    streamed = b.ask_streaming(session, "売上金額の合計は？")  # B continues from A's filter, and streams
    names = [name for name, _ in streamed]
    assert names[0] == "turn_started" and "code" in names and names[-1] == "result"
    assert total(kanto) in streamed[-1][1]["message"]

    made = a.request("POST", f"/{session}/snapshots", json={"name": "関東"})
    assert made.status_code == 201, made.text
    assert [(s["name"], s["rows"]) for s in b.get(f"/{session}/snapshots")] == [("関東", len(kanto))]

    # a data change through B: A, which has the session open on the filtered data, must follow it
    assert b.request("POST", f"/{session}/reset").status_code == 200
    assert a.get(f"/{session}")["dataset"]["rows"] == len(sales)
    streamed = a.ask_streaming(session, "売上金額の合計は？")
    assert total(sales) in streamed[-1][1]["message"]

    # variables a turn through one replica committed are there for a turn through the other
    assert printed(a.ask(session, f"{CELL}x = 41\nprint(x)")) == "41"
    assert printed(b.ask(session, f"{CELL}x += 1\nprint(x)")) == "42"
    assert printed(a.ask(session, f"{CELL}print(x)")) == "42"
    assert [m["role"] for m in a.get(f"/{session}/messages")] == ["user", "assistant"] * 6


def test_a_replica_killed_mid_turn_loses_nothing_committed(
    replicas: tuple[Replica, Replica], deployment: Deployment, sales: pd.DataFrame
) -> None:
    a, b = replicas
    kanto = sales[sales["地域"] == "関東"]
    session = a.upload(SALES_CSV)
    assert a.ask(session, "地域は関東だけにして")["status"] == "finalized"
    assert printed(a.ask(session, f"{CELL}kept = 7\nprint(kept)")) == "7"
    workspace = _workspace(deployment, session)

    headers = {**a.headers, "Accept": "text/event-stream"}
    with httpx.stream(
        "POST", f"{a.url}{PREFIX}/{session}/chat", json={"message": HANG}, headers=headers, timeout=180
    ) as response:
        assert response.status_code == 200
        assert any(line == "event: code" for line in response.iter_lines()), "the hanging cell never started"
        time.sleep(0.5)  # let the cell get into its sleep, past the line that sets half_applied
        a.kill()
    if deployment.settings["BUNSEKI_SANDBOX_BACKEND"] == "local":
        assert processes_in(workspace) == [], "the killed replica's sandbox outlived it"

    messages = b.get(f"/{session}/messages")  # B sees the turn A was running as interrupted, in words
    assert [m["role"] for m in messages] == ["user", "assistant"] * 3
    assert messages[-2]["content"] == HANG and "中断" in messages[-1]["content"]
    steps = b.get(f"/{session}/steps")
    assert [s["step_type"] for s in steps] == ["filter_data", "code"]  # nothing of the killed turn
    assert b.get(f"/{session}")["dataset"]["rows"] == len(kanto)

    assert total(kanto) in b.ask(session, "売上金額の合計は？")["message"]
    after = b.ask(session, f"{CELL}print(kept, globals().get('half_applied', 'not applied'))")
    assert printed(after) == "7 not applied"


def test_a_replica_on_another_machine_killed_mid_turn_frees_the_session_in_seconds(
    replicas: tuple[Replica, Replica], deployment: Deployment, api_key: str
) -> None:
    _, b = replicas
    far = deployment.start(api_key, hostname="otherhost")  # B cannot ask its /proc: only its heartbeat tells
    try:
        session = far.upload(SALES_CSV)
        headers = {**far.headers, "Accept": "text/event-stream"}
        with httpx.stream(
            "POST", f"{far.url}{PREFIX}/{session}/chat", json={"message": HANG}, headers=headers, timeout=180
        ) as response:
            assert response.status_code == 200
            assert any(line == "event: code" for line in response.iter_lines()), "the hanging cell never started"
            far.kill()
        settings = Settings(database_url=deployment.database_url, workspace_root=deployment.workspace_root)
        with Store.from_settings(settings) as store:
            (left,) = store.running_turns(session)
        assert (left.owner or "").startswith("otherhost:")  # recorded as another machine's turn

        # Without heartbeats the turn would hold the session for about 20 minutes (longest_turn_s);
        # with them it is over once the beat is 3 × 0.5 s old. The bound only stops a hang.
        deadline = time.monotonic() + 120
        while len(messages := b.get(f"/{session}/messages")) < 2 and time.monotonic() < deadline:
            time.sleep(0.2)
        assert [m["role"] for m in messages] == ["user", "assistant"]
        assert messages[0]["content"] == HANG and "中断" in messages[1]["content"]
        assert b.ask(session, "売上金額の合計は？")["status"] == "finalized"
    finally:
        far.stop()


def _workspace(deployment: Deployment, session: str) -> str:
    settings = Settings(database_url=deployment.database_url, workspace_root=deployment.workspace_root)
    store = Store.from_settings(settings)
    try:
        return store.get_session(session).workspace
    finally:
        store.close()

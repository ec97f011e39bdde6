"""A session's sandbox as a Ray actor: placed on a sandbox worker, answering cells, found by any driver."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
import threading
import uuid
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from bunseki.domain import ExecutionResult
from bunseki.owners import process_owner
from bunseki.sandbox import new_workspace
from bunseki.sandbox.ray_backend import RayBackend
from tests.scale.cluster.conftest import LocalCluster, wait_until

SRC = Path(__file__).resolve().parents[3] / "src"


@pytest.fixture(scope="module")
def session(ray_cluster: LocalCluster) -> Iterator[tuple[RayBackend, str]]:
    """One session for this module's tests (an actor start costs seconds on a loaded machine)."""
    backend = RayBackend(ray_cluster.settings())
    session_id = uuid.uuid4().hex
    backend.ensure(session_id, new_workspace(ray_cluster.root))
    yield backend, session_id
    backend.stop(session_id)


def test_a_session_lands_on_a_sandbox_worker_and_answers(
    ray_cluster: LocalCluster, session: tuple[RayBackend, str]
) -> None:
    backend, session_id = session

    info = backend.info(session_id)
    assert info["node_id"] in ray_cluster.worker_ids()
    assert info["node_id"] != ray_cluster.head_id()
    assert info["tier"] == "bwrap"

    frame = pd.DataFrame(np.arange(15).reshape(5, 3), columns=["a", "b", "c"])
    backend.load_frame(session_id, frame)
    summed = backend.execute(session_id, "print(int(df['b'].sum()))")
    assert summed.success, summed.error
    assert summed.stdout == "35\n"
    described = backend.execute(session_id, "df.describe()")
    assert described.tables[0].columns == ["a", "b", "c"]

    failed = backend.execute(session_id, "1 / 0")
    assert not failed.success
    assert failed.error_type == "ZeroDivisionError"
    refused = backend.execute(session_id, "import socket")
    assert refused.error_type == "PolicyViolation"

    backend.reset(session_id)
    forgotten = backend.execute(session_id, "print(len(df))")
    assert forgotten.error_type == "NameError"
    assert backend.saved_cell(session_id) == -1  # the saved state went too

    health = backend.health()
    assert health.backend == "ray"
    assert health.ok
    assert health.sessions >= 1
    assert health.detail["sandbox_nodes"] == 2


def test_generated_code_sees_no_ray_variable_token_or_address(
    ray_cluster: LocalCluster, session: tuple[RayBackend, str]
) -> None:
    backend, session_id = session

    result = backend.execute(session_id, "import os; print(sorted(os.environ))", check_policy=False)

    assert result.success, result.error
    assert result.stdout is not None
    seen = ast.literal_eval(result.stdout.strip())
    assert [name for name in seen if name.startswith("RAY") or "TOKEN" in name] == []
    assert os.environ["RAY_AUTH_TOKEN"] not in result.stdout
    assert ray_cluster.cluster.address not in result.stdout
    assert ray_cluster.cluster.address.split(":")[1] not in result.stdout
    # the actor around it does carry Ray's variables: the check above could fail
    actor_environ = Path(f"/proc/{backend.info(session_id)['pid']}/environ").read_bytes()
    assert b"RAY_AUTH_TOKEN=" in actor_environ


def test_a_second_driver_finds_the_session_by_name_and_continues_it(
    ray_cluster: LocalCluster, session: tuple[RayBackend, str]
) -> None:
    backend, session_id = session
    assert backend.execute(session_id, "n = 41").success

    script = (
        "import sys\n"
        "from bunseki.sandbox.ray_backend import RayBackend\n"
        "from bunseki.settings import Settings\n"
        "backend = RayBackend(Settings(workspace_root=sys.argv[1], ray_address=sys.argv[2], sandbox_backend='ray'))\n"
        "result = backend.execute(sys.argv[3], 'n += 1\\nprint(n)')\n"
        "print(result.stdout.strip(), backend.info(sys.argv[3])['pid'])\n"
    )
    # Only the token, as an operator sets it: the backend switches Ray's token mode on by itself.
    environment = {**os.environ, "PYTHONPATH": str(SRC)}
    environment.pop("RAY_AUTH_MODE")
    arguments = [str(ray_cluster.root), ray_cluster.cluster.address, session_id]
    second = subprocess.run(
        [sys.executable, "-c", script, *arguments], capture_output=True, text=True, env=environment, timeout=300
    )

    assert second.returncode == 0, second.stderr[-2000:]
    answer, pid = second.stdout.split()
    assert answer == "42"
    assert int(pid) == backend.info(session_id)["pid"]  # the same actor, not a second one
    assert backend.execute(session_id, "print(n)").stdout == "42\n"


def test_abandon_stops_only_the_cell_of_the_process_named(
    ray_cluster: LocalCluster, session: tuple[RayBackend, str]
) -> None:
    backend, session_id = session
    kept = backend.execute(session_id, "kept = 7")
    assert kept.success and kept.cell is not None
    wait_until(lambda: backend.saved_cell(session_id) >= kept.cell, "the save of the cell")  # what a restart restores
    workspace = Path(backend.info(session_id)["workspace"])
    outcome: list[ExecutionResult] = []
    cell = "kept = -1\nopen('abandoned.txt', 'w').write('1')\nimport time\ntime.sleep(240)"
    running = threading.Thread(target=lambda: outcome.append(backend.execute(session_id, cell)))
    running.start()
    wait_until(lambda: (workspace / "abandoned.txt").exists(), "the start of the long cell")

    assert not backend.abandon(session_id, "another-host:1:1:service")  # not that process's cell
    assert running.is_alive()
    assert backend.abandon(session_id, f"{process_owner()}:service")  # a turn's owner names its process first
    running.join(timeout=120)

    assert not running.is_alive(), "the abandoned cell kept running"
    assert outcome[0].error_type == "Interrupted"
    assert backend.execute(session_id, "print(kept)").stdout == "7\n"
    assert not backend.abandon(session_id, "another-host:1:1:service")  # nothing runs now


def test_a_cell_that_arrives_after_its_caller_was_abandoned_is_not_run(
    ray_cluster: LocalCluster, session: tuple[RayBackend, str]
) -> None:
    """A replica killed just after sending a cell: the cell can reach the actor after another replica
    abandoned the turn. Run, it would hold the session for its whole time limit."""
    backend, session_id = session
    script = (
        "import sys\n"
        "from bunseki.owners import process_owner\n"
        "from bunseki.sandbox.ray_backend import RayBackend\n"
        "from bunseki.settings import Settings\n"
        "backend = RayBackend(Settings(workspace_root=sys.argv[1], ray_address=sys.argv[2], sandbox_backend='ray'))\n"
        "print(process_owner(), flush=True)\n"
        "sys.stdin.readline()\n"  # the cell is sent only once the test abandoned this process
        "print(backend.execute(sys.argv[3], 'late = 1').error_type, flush=True)\n"
        "print(backend.execute(sys.argv[3], 'later = 2').success)\n"  # the refusal was for one cell
    )
    environment = {**os.environ, "PYTHONPATH": str(SRC)}
    environment.pop("RAY_AUTH_MODE")
    arguments = [str(ray_cluster.root), ray_cluster.cluster.address, session_id]
    late = subprocess.Popen(
        [sys.executable, "-c", script, *arguments],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=environment,
    )
    assert late.stdout is not None
    owner = late.stdout.readline().strip()
    assert owner, late.stderr.read() if late.stderr else ""

    assert not backend.abandon(session_id, f"{owner}:service")  # nothing of it runs yet
    stdout, stderr = late.communicate("go\n", timeout=300)

    assert late.returncode == 0, stderr[-2000:]
    assert stdout.split() == ["Interrupted", "True"]
    assert backend.execute(session_id, "print(globals().get('late'), later)").stdout == "None 2\n"

"""A sandbox worker node dies without warning: the cell in flight is reported lost, never retried; the
session comes back on the other node with its committed state and answers correctly."""

from __future__ import annotations

import os
import signal
import threading

import pandas as pd

from bunseki.errors import SandboxLost
from bunseki.sandbox.inside import procs
from bunseki.sandbox.ray_backend import RayBackend
from tests.scale.cluster.conftest import LocalCluster, SessionOpener, wait_until

CELLS = ["df['y'] = df.x * 2", "total = int(df.y.sum())"]


def test_a_node_killed_mid_cell_loses_that_cell_and_the_session_restarts_elsewhere(
    ray_cluster: LocalCluster, sessions: SessionOpener
) -> None:
    backend = RayBackend(ray_cluster.settings())
    session_id, workspace = sessions.open(backend)
    backend.load_frame(session_id, pd.DataFrame({"x": range(1000)}))  # data loaded, then two cells
    for code in CELLS:
        assert backend.execute(session_id, code).success
    wait_until(lambda: backend.saved_cell(session_id) >= len(CELLS), "the save of the second cell")
    before = backend.info(session_id)
    doomed = ray_cluster.worker(before["node_id"])

    outcome: dict[str, BaseException | object] = {}

    def in_flight() -> None:
        code = "open('started.txt', 'w').write('1')\ntotal = -1\nimport time\ntime.sleep(120)"
        try:
            outcome["result"] = backend.execute(session_id, code)
        except BaseException as exc:
            outcome["error"] = exc

    thread = threading.Thread(target=in_flight)
    thread.start()
    wait_until(lambda: (workspace / "started.txt").exists(), "the start of the long cell")

    tree = procs.descendants(before["pid"]) | {before["pid"]}
    ray_cluster.cluster.remove_node(doomed, allow_graceful=False)
    ray_cluster.workers.remove(doomed)
    for pid in tree:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    thread.join(timeout=120)

    assert not thread.is_alive()
    lost = outcome.get("error")
    assert isinstance(lost, SandboxLost), outcome
    assert "ask again" in str(lost)

    answer = backend.execute(session_id, "print(total, len(df))")  # waits while the actor restarts
    assert answer.stdout == "999000 1000\n"  # the committed state, not the lost cell's total = -1
    after = backend.info(session_id)
    assert after["node_id"] != before["node_id"]
    assert after["node_id"] in ray_cluster.worker_ids()
    assert after["reconstructed"] is True
    assert after["epoch"] > before["epoch"]

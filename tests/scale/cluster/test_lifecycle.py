"""Idle sessions end their actor and come back with their state; stopping a session ends it for good."""

from __future__ import annotations

from bunseki.sandbox import epochs
from bunseki.sandbox.inside import snapshot
from bunseki.sandbox.ray_backend import RayBackend
from tests.scale.cluster.conftest import LocalCluster, SessionOpener, wait_until


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            return handle.read().rsplit(b")", 1)[1].split()[0] != b"Z"
    except OSError:
        return False


def test_an_idle_session_is_evicted_restored_by_the_next_call_and_ended_by_stop(
    ray_cluster: LocalCluster, sessions: SessionOpener
) -> None:
    backend = RayBackend(ray_cluster.settings(session_idle_s=2.0))  # margin for calls on a loaded machine
    session_id, workspace = sessions.open(backend)
    assert backend.execute(session_id, "x = 5").success
    wait_until(lambda: backend.saved_cell(session_id) >= 1, "the save of cell 1")
    before = backend.info(session_id)

    wait_until(lambda: backend._lookup(session_id) is None, "the eviction of the idle session")
    wait_until(lambda: not _alive(before["sandbox_pid"]), "the end of the evicted sandbox")
    own = epochs.state_dir(epochs.directory(workspace, before["epoch"]))
    assert snapshot.current_generation(str(own)) >= 1  # the state stays, in its epoch's directory

    again = backend.execute(session_id, "print(x)")
    assert again.stdout == "5\n"
    after = backend.info(session_id)
    assert after["pid"] != before["pid"]
    assert after["restored"] == ["x"]
    assert after["epoch"] == before["epoch"] + 1

    backend.stop(session_id)

    assert backend._lookup(session_id) is None
    wait_until(lambda: not _alive(after["sandbox_pid"]), "the end of the sandbox")
    wait_until(lambda: not _alive(after["pid"]), "the end of the actor's worker")

"""Fencing: an old instance still running after its replacement started may not write anything."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
import ray

from bunseki.errors import SandboxFenced
from bunseki.sandbox import epochs
from bunseki.sandbox.ray_actor import actor_class
from bunseki.sandbox.ray_backend import RESOURCE, RayBackend, _actor_setting_names
from bunseki.store import Store
from tests.scale.cluster.conftest import LocalCluster, SessionOpener, wait_until


def test_the_old_actor_is_refused_once_a_replacement_took_a_newer_epoch(
    ray_cluster: LocalCluster, sessions: SessionOpener
) -> None:
    settings = ray_cluster.settings()
    backend = RayBackend(settings)
    session_id, workspace = sessions.open(backend)
    assert backend.execute(session_id, "x = 1").success
    wait_until(lambda: backend.saved_cell(session_id) >= 1, "the save of cell 1")
    old = backend.info(session_id)

    replacement = start_replacement(ray_cluster, session_id, workspace)
    try:
        new = ray.get(replacement.info.remote(), timeout=120)
        assert new["epoch"] == old["epoch"] + 1
        assert new["restored"] == ["x"]

        with pytest.raises(SandboxFenced):
            backend.execute(session_id, "x = 2\nopen('written_by_the_old_one.txt', 'w').write('old')")

        assert not (workspace / "written_by_the_old_one.txt").exists()
        assert ray.get(replacement.saved_cell.remote(), timeout=120) == 1  # no save of "x = 2" either
        reply = ray.get(replacement.execute.remote("print(x)", None, True), timeout=120)
        assert reply["result"]["stdout"] == "1\n"
        with Store(settings.database, migrate=False) as store:
            assert store.current_epoch(session_id) == new["epoch"]
        # the refused instance ended itself: its name is free, its sandbox gone
        wait_until(lambda: backend._lookup(session_id) is None, "the end of the fenced actor")
    finally:
        ray.get(replacement.shutdown.remote(), timeout=120)


# Cell 2 of the old instance: it changes x, then waits for the test's word before it ends (and before
# its saver, forked once the cell is over, writes x = 'old').
SLOW_CELL = """import pathlib, time
x = 'old'
pathlib.Path('started').touch()
while not pathlib.Path('go').exists():
    time.sleep(0.05)
"""


def test_a_save_the_old_actor_commits_after_the_replacement_started_is_never_restored(
    ray_cluster: LocalCluster, sessions: SessionOpener
) -> None:
    backend = RayBackend(ray_cluster.settings())
    session_id, workspace = sessions.open(backend)
    assert backend.execute(session_id, "x = 'first'").success
    wait_until(lambda: backend.saved_cell(session_id) >= 1, "the save of cell 1")
    old = backend.info(session_id)

    with ThreadPoolExecutor(1) as pool:
        pending = pool.submit(backend.execute, session_id, SLOW_CELL)
        wait_until(lambda: (workspace / "started").exists(), "the start of the old instance's slow cell")
        replacement = start_replacement(ray_cluster, session_id, workspace)
        try:
            new = ray.get(replacement.info.remote(), timeout=120)
            assert new["epoch"] == old["epoch"] + 1
            assert new["restored"] == ["x"]

            (workspace / "go").touch()  # the old cell ends now, after the replacement started
            assert pending.result(timeout=120).success
            # the old instance, never told, committed x = 'old' (cell 2) after the replacement restored
            wait_until(lambda: backend.saved_cell(session_id) == 2, "the old instance's late save")

            def replacement_runs(code: str) -> dict[str, Any]:
                reply: dict[str, Any] = ray.get(replacement.execute.remote(code, None, True), timeout=120)
                result: dict[str, Any] = reply["result"]
                return result

            def replacement_saved() -> int:
                return int(ray.get(replacement.saved_cell.remote(), timeout=120))

            # The replacement's saved state is still the one it started from; x is looked at by a cell
            # that fails, so that the state (and its generation) stays as it is.
            assert replacement_saved() == 1
            assert replacement_runs("print(x)\n1 / 0")["stdout"] == "first\n"
            # One change: a save of the same generation as the old instance's late one must still win.
            assert replacement_runs("x = 'new'")["success"]
            wait_until(lambda: replacement_saved() >= 2, "the replacement's save")
            assert replacement_runs("print(x)\n1 / 0")["stdout"] == "new\n"
            with pytest.raises(SandboxFenced):
                backend.execute(session_id, "print(x)")
            wait_until(lambda: backend._lookup(session_id) is None, "the end of the fenced actor")
        finally:
            ray.get(replacement.shutdown.remote(), timeout=120)

    # Any later restart restores the replacement's state, never the old instance's later save.
    later = backend.info(session_id)
    assert later["epoch"] == new["epoch"] + 1
    assert backend.execute(session_id, "print(x)").stdout == "new\n"
    # it keeps the directory it restored from; older ones (the old instance's) are gone
    assert epochs.existing(workspace).keys() == {new["epoch"], later["epoch"]}


def start_replacement(ray_cluster: LocalCluster, session_id: str, workspace: Path) -> Any:
    """Another instance of the session over the same workspace (as Ray would start on another node while
    the old one still runs on a cut-off node), under another name."""
    settings = ray_cluster.settings()
    values = settings.model_dump(include=_actor_setting_names(settings))
    return (
        actor_class()
        .options(name=f"replacement-{session_id}", resources={RESOURCE: 1}, num_cpus=0)
        .remote(session_id, str(workspace), values, settings.database)
    )

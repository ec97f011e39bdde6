"""Fencing: an old instance still running after its replacement started may not write anything."""

from __future__ import annotations

from typing import Any

import pytest
import ray

from bunseki.errors import SandboxFenced
from bunseki.sandbox.ray_actor import SessionActor
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

    # The replacement: another instance of the session over the same workspace (as Ray would start
    # on another node while the old one still runs on a cut-off node), under another name.
    values = settings.model_dump(include=_actor_setting_names(settings))
    actor_class: Any = ray.remote(SessionActor)
    replacement = actor_class.options(name=f"replacement-{session_id}", resources={RESOURCE: 1}, num_cpus=0).remote(
        session_id, str(workspace), values, settings.database
    )
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

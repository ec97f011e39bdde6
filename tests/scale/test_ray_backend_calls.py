"""The Ray backend's call path without a cluster: a handle is resolved once and again only on failure.

A fake cluster stands in for Ray's name registry (``get_if_exists`` / ``get_actor``) and its actors;
the backend's own logic (`_call`, `_handle`, `_wait_ready`, `ensure`) runs unchanged.
"""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import pytest

from bunseki.domain import ExecutionResult
from bunseki.errors import SandboxFenced, SandboxLost
from bunseki.settings import Settings

ray_backend = pytest.importorskip("bunseki.sandbox.ray_backend", reason="Ray is not installed")
from ray.exceptions import RayActorError  # noqa: E402 (only once Ray is known to be there)

_ids = itertools.count(1)


class FakeRef:
    """What ``.remote()`` returns: the reply, or the error Ray would raise from ``ray.get``."""

    def __init__(self, outcome: Any) -> None:
        self.outcome = outcome

    def resolve(self) -> Any:
        if isinstance(self.outcome, BaseException):
            raise self.outcome
        return self.outcome


class FakeMethod:
    def __init__(self, actor: FakeActor, name: str) -> None:
        self.actor, self.name = actor, name

    def remote(self, *args: Any) -> FakeRef:
        return FakeRef(self.actor.receive(self.name, args))


class FakeActor:
    """One instance of a session actor: answers info and runs cells until it ends."""

    def __init__(self, cluster: FakeCluster, session_id: str) -> None:
        self._actor_id = f"actor-{next(_ids)}"
        self.cluster, self.session_id = cluster, session_id
        self.ran: list[str] = []
        self.ended = False
        self.lost_mid_call = False  # its node dies during the next cell (Ray restarts it: same id)
        self.refusal: dict[str, Any] | None = None

    def __getattr__(self, name: str) -> FakeMethod:
        return FakeMethod(self, name)

    def receive(self, method: str, args: tuple[Any, ...]) -> Any:
        if self.ended:
            return RayActorError(error_msg="The actor is dead.")
        if method == "info":
            return {"workspace": "/shared/ws", "closing": None, "epoch": 1}
        if self.lost_mid_call:
            self.lost_mid_call = False
            return RayActorError(error_msg="The actor died unexpectedly before finishing this task.")
        if self.refusal is not None:
            self.end()  # a refusing instance ends itself, freeing its name
            return self.refusal
        self.ran.append(args[0])
        return {"result": ExecutionResult(success=True, code=args[0], stdout="").model_dump(mode="json")}

    def end(self) -> None:
        self.ended = True
        if self.cluster.named.get(self.session_id) is self:
            del self.cluster.named[self.session_id]


class FakeCluster:
    """Ray's name registry: at most one live actor per session name; counts how often it is asked."""

    def __init__(self) -> None:
        self.named: dict[str, FakeActor] = {}
        self.lookups = 0
        self.creates = 0

    def get_actor(self, session_id: str) -> FakeActor | None:
        self.lookups += 1
        return self.named.get(session_id)

    def get_if_exists(self, session_id: str) -> FakeActor:
        self.creates += 1
        if session_id not in self.named:
            self.named[session_id] = FakeActor(self, session_id)
        return self.named[session_id]


class ClusterlessBackend(ray_backend.RayBackend):  # type: ignore[misc,name-defined]
    """The real backend with the cluster's registry replaced by the fake one."""

    def __init__(self, cluster: FakeCluster, settings: Settings) -> None:
        super().__init__(settings, restart_wait_s=5.0)
        self.cluster = cluster

    def _connect(self) -> None:
        pass

    def _create(self, session_id: str) -> Any:
        handle = self.cluster.get_if_exists(session_id)
        self._handles[session_id] = handle
        return handle

    def _lookup(self, session_id: str) -> Any:
        return self.cluster.get_actor(session_id)


@pytest.fixture
def cluster(monkeypatch: pytest.MonkeyPatch) -> FakeCluster:
    monkeypatch.setattr(ray_backend, "_get", lambda reference, timeout: reference.resolve())
    return FakeCluster()


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(workspace_root=tmp_path, sandbox_backend="ray", ray_address="127.0.0.1:6379")


def test_cells_go_to_the_held_handle_without_asking_the_registry_again(
    cluster: FakeCluster, settings: Settings, tmp_path: Path
) -> None:
    backend = ClusterlessBackend(cluster, settings)
    backend.ensure("s1", tmp_path)
    backend.ensure("s1", tmp_path)  # a second start of the same session: the held handle answers
    for code in ("x = 1", "y = 2", "x + y"):
        assert backend.execute("s1", code).success

    assert cluster.creates == 1
    assert cluster.lookups == 0
    assert cluster.named["s1"].ran == ["x = 1", "y = 2", "x + y"]


def test_another_replica_finds_the_actor_by_name_once(cluster: FakeCluster, settings: Settings, tmp_path: Path) -> None:
    ClusterlessBackend(cluster, settings).ensure("s1", tmp_path)
    other = ClusterlessBackend(cluster, settings)

    assert other.execute("s1", "a = 1").success
    assert other.execute("s1", "b = 2").success

    assert cluster.lookups == 1
    assert cluster.named["s1"].ran == ["a = 1", "b = 2"]


def test_a_handle_whose_actor_ended_while_idle_is_resolved_again(
    cluster: FakeCluster, settings: Settings, tmp_path: Path
) -> None:
    backend = ClusterlessBackend(cluster, settings)
    backend.ensure("s1", tmp_path)
    old = cluster.named["s1"]
    old.end()  # evicted for idleness, or stopped by another replica

    assert backend.execute("s1", "x = 1").success

    new = cluster.named["s1"]
    assert new is not old
    assert (old.ran, new.ran) == ([], ["x = 1"])  # run once, by the new instance only
    assert backend.execute("s1", "y = 2").success
    assert new.ran == ["x = 1", "y = 2"]


def test_ensure_with_a_held_handle_of_an_ended_actor_starts_it_again(
    cluster: FakeCluster, settings: Settings, tmp_path: Path
) -> None:
    backend = ClusterlessBackend(cluster, settings)
    backend.ensure("s1", tmp_path)
    old = cluster.named["s1"]
    old.end()

    backend.ensure("s1", tmp_path)

    assert cluster.named["s1"] is not old
    assert cluster.creates == 2


def test_a_cell_lost_with_its_node_is_reported_and_never_run_again(
    cluster: FakeCluster, settings: Settings, tmp_path: Path
) -> None:
    backend = ClusterlessBackend(cluster, settings)
    backend.ensure("s1", tmp_path)
    actor = cluster.named["s1"]
    actor.lost_mid_call = True  # Ray restarts it under the same id: the registry still names it

    with pytest.raises(SandboxLost):
        backend.execute("s1", "x = 1")

    assert actor.ran == []  # at most once: the lost cell is not retried
    assert backend.execute("s1", "y = 2").success  # the next call waits for it, then runs
    assert actor.ran == ["y = 2"]


def test_a_fenced_reply_is_raised_and_the_handle_dropped(
    cluster: FakeCluster, settings: Settings, tmp_path: Path
) -> None:
    backend = ClusterlessBackend(cluster, settings)
    backend.ensure("s1", tmp_path)
    old = cluster.named["s1"]
    old.refusal = {"refused": "fenced", "message": "epoch 1 of session s1 was superseded by epoch 2"}

    with pytest.raises(SandboxFenced, match="superseded by epoch 2"):
        backend.execute("s1", "x = 2")

    assert old.ran == []
    assert "s1" not in backend._handles
    assert backend.execute("s1", "x = 3").success  # the next call is served by the session's live actor
    assert cluster.named["s1"].ran == ["x = 3"]


def test_an_instance_refusing_on_its_way_out_is_replaced_for_the_same_call(
    cluster: FakeCluster, settings: Settings, tmp_path: Path
) -> None:
    backend = ClusterlessBackend(cluster, settings)
    backend.ensure("s1", tmp_path)
    old = cluster.named["s1"]
    old.refusal = {"refused": "evicted"}

    assert backend.execute("s1", "x = 1").success

    assert old.ran == []
    assert cluster.named["s1"].ran == ["x = 1"]

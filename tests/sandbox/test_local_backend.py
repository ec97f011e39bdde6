"""`LocalBackend`: one sandbox per session id, the warm pool behind it, idle ones stopped and restored."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pandas as pd
import pytest

from bunseki.errors import SandboxError
from bunseki.sandbox import new_workspace, remove_workspace
from bunseki.sandbox.backend import SandboxBackend, SessionSandbox
from bunseki.sandbox.local_backend import LocalBackend
from bunseki.settings import Settings


class Clock:
    """Idle time that passes only when the test says so."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def backend(settings: Settings, clock: Clock) -> Iterator[LocalBackend]:
    opened = LocalBackend(settings.model_copy(update={"session_idle_s": 60.0}), warm=False, clock=clock)
    yield opened
    opened.close()


def box(backend: SandboxBackend, session_id: str, settings: Settings) -> SessionSandbox:
    sandbox = SessionSandbox(backend, session_id, new_workspace(settings.workspace_root))
    sandbox.start()
    return sandbox


def test_it_is_a_sandbox_backend(backend: LocalBackend) -> None:
    assert isinstance(backend, SandboxBackend)
    assert backend.name == "local"


def test_each_session_has_its_own_sandbox(backend: LocalBackend, settings: Settings) -> None:
    first, second = box(backend, "s1", settings), box(backend, "s2", settings)
    first.load_frame(pd.DataFrame({"x": [1, 2, 3]}))
    assert first.run("total = int(df['x'].sum())\nprint(total)").stdout.strip() == "6"
    assert first.run("print(total)").stdout.strip() == "6"  # the namespace stays between cells
    assert second.run("print(total)").error_type == "NameError"
    assert backend.health().sessions == 2
    first.start()  # ensure again: the same sandbox, its state kept
    assert first.run("print(total)").stdout.strip() == "6"

    first.close()
    assert backend.health().sessions == 1
    with pytest.raises(SandboxError, match="ensure"):
        first.run("print(1)")  # stopped and forgotten: only a new ensure starts it again
    assert second.run("print('still here')").success


def test_an_idle_sandbox_is_stopped_and_the_next_call_restores_its_state(
    backend: LocalBackend, settings: Settings, clock: Clock
) -> None:
    sandbox = box(backend, "idle", settings)
    busy = box(backend, "busy", settings)
    assert sandbox.run("answer = 41").success
    clock.now += 59
    assert backend.reap() == 0  # not idle long enough
    clock.now += 2
    with backend._using("busy"):  # a call in progress is never cut off
        assert backend.reap() == 1
    health = backend.health()
    assert (health.sessions, health.detail["evicted"]) == (1, 1)

    result = sandbox.run("print(answer + 1)")  # a new sandbox, on the saved state
    assert result.stdout.strip() == "42", result.error
    assert backend.health().sessions == 2
    assert busy.run("print('kept')").success


def test_the_reaper_stops_idle_sandboxes_on_its_own(settings: Settings) -> None:
    backend = LocalBackend(settings.model_copy(update={"session_idle_s": 0.2}), warm=False)
    try:
        sandbox = box(backend, "s", settings)
        assert sandbox.run("kept = 'yes'").success
        deadline = time.monotonic() + 60
        while backend.health().sessions:
            assert time.monotonic() < deadline, "the idle sandbox was never stopped"
            time.sleep(0.05)
        assert backend.evicted >= 1
        assert sandbox.run("print(kept)").stdout.strip() == "yes"
    finally:
        backend.close()


def test_reset_drops_the_state(backend: LocalBackend, settings: Settings) -> None:
    sandbox = box(backend, "s", settings)
    assert sandbox.run("gone = 1").success
    sandbox.reset()
    assert sandbox.run("print(gone)").error_type == "NameError"
    assert sandbox.run("print('fresh')").success


def test_a_new_session_adopts_a_warm_sandbox_and_the_rest_are_stopped(settings: Settings) -> None:
    backend = LocalBackend(settings.model_copy(update={"sandbox_pool_size": 2}), warm=True)
    try:
        assert backend.pool is not None
        deadline = time.monotonic() + 120
        while backend.pool.stats().ready < 2:
            assert time.monotonic() < deadline, backend.pool.failures
            time.sleep(0.1)
        workspace = backend.new_workspace()
        warm = backend._reserved[workspace][0]
        backend.ensure("s", workspace)
        assert backend._held["s"].sandbox is warm and warm.restarts == 0
        assert SessionSandbox(backend, "s", workspace).run("print(6 * 7)").stdout.strip() == "42"

        unused = backend.new_workspace()  # a session that is never created: its workspace goes
        orphan = backend._reserved[unused][0]
        remove_workspace(unused)
        backend.reap()
        assert unused not in backend._reserved and not orphan.alive
        health = backend.health()
        assert health.backend == "local" and health.sessions == 1 and health.detail["pool_size"] == 2
    finally:
        backend.close()
    assert not warm.alive and backend.health().sessions == 0


def test_a_closed_backend_refuses_work(settings: Settings) -> None:
    backend = LocalBackend(settings, warm=False)
    sandbox = box(backend, "s", settings)
    backend.close()
    assert not backend.health().ok
    with pytest.raises(SandboxError, match="closed"):
        sandbox.run("print(1)")

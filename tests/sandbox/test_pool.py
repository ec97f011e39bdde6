"""The warm pool: sandboxes started ahead of time, each in a workspace of its own, handed out once."""

from __future__ import annotations

import time
from pathlib import Path

from bunseki.sandbox import SandboxPool
from bunseki.settings import Settings


def _wait_ready(pool: SandboxPool, count: int, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while pool.stats().ready < count:
        assert time.monotonic() < deadline, f"the pool did not fill: {pool.failures}"
        time.sleep(0.1)


def test_the_pool_hands_out_started_sandboxes_and_refills(settings: Settings) -> None:
    pool = SandboxPool(settings, size=2)
    try:
        pool.fill()
        _wait_ready(pool, 2)
        stats = pool.stats()
        assert stats.worker_rss_bytes > 50 * 1024 * 1024  # the analysis stack is imported
        assert 0 < stats.worker_pss_bytes <= stats.worker_rss_bytes
        assert stats.pool_pss_bytes >= 2 * stats.worker_pss_bytes * 0.5
        first, second = pool.take(), pool.take()
        assert first is not None and second is not None
        assert first.alive and second.alive
        assert first.workspace != second.workspace  # one workspace each, under the root
        assert first.workspace.parent == settings.workspace_root.resolve()
        assert first.run("print(1 + 1)").stdout == "2\n"
        assert first.restarts == 0
        _wait_ready(pool, 2)  # taking starts replacements in the background
        third = pool.take()
        assert third is not None and third not in (first, second)
        third.close()
        first.close()
        second.close()
    finally:
        pool.close()


def test_closing_the_pool_removes_the_workspaces_nobody_took(settings: Settings) -> None:
    pool = SandboxPool(settings, size=1)
    pool.fill()
    _wait_ready(pool, 1)
    pool.close()
    assert list(Path(settings.workspace_root).iterdir()) == []
    assert pool.take() is None  # closed: nothing is handed out or started again

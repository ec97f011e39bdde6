"""A server's service hands each new session a sandbox that is already warm."""

from __future__ import annotations

import time
from pathlib import Path

from bunseki.samples import SALES_CSV
from tests.conftest import ServiceFactory


def test_a_new_session_adopts_a_warm_sandbox_and_its_workspace(open_service: ServiceFactory) -> None:
    service = open_service(warm=True, sandbox_pool_size=1)
    assert service.pool is not None
    deadline = time.monotonic() + 60
    while service.pool.stats().ready < 1:
        assert time.monotonic() < deadline, service.pool.failures
        time.sleep(0.1)
    warm = service.pool.stats()
    session = service.create_session(SALES_CSV)
    assert (Path(session.workspace) / "data" / SALES_CSV.name).exists()
    result = service.run_turn(session.id, "売上の合計は？")
    assert result.status == "finalized", result.error
    runtime = service._open[session.id]
    assert runtime.sandbox.workspace == Path(session.workspace)
    assert runtime.sandbox.restarts == 0
    assert warm.ready == 1 and warm.worker_pss_bytes > 0


def test_without_warm_no_sandbox_starts_ahead(open_service: ServiceFactory) -> None:
    assert open_service(sandbox_pool_size=2).pool is None

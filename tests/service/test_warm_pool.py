"""A server's service hands each new session a sandbox that is already warm."""

from __future__ import annotations

import time
from pathlib import Path

from bunseki.samples import SALES_CSV
from bunseki.sandbox.local_backend import LocalBackend
from tests.conftest import ServiceFactory


def test_a_new_session_adopts_a_warm_sandbox_and_its_workspace(open_service: ServiceFactory) -> None:
    service = open_service(warm=True, sandbox_pool_size=1)
    backend = service.backend
    assert isinstance(backend, LocalBackend) and backend.pool is not None
    deadline = time.monotonic() + 60
    while backend.pool.stats().ready < 1:
        assert time.monotonic() < deadline, backend.pool.failures
        time.sleep(0.1)
    assert service.warm_sandboxes() == 1
    warm = backend.pool.stats()
    session = service.create_session(SALES_CSV)
    assert (Path(session.workspace) / "data" / SALES_CSV.name).exists()
    adopted = backend._reserved[Path(session.workspace)][0]  # the warm sandbox whose workspace it got
    result = service.run_turn(session.id, "売上の合計は？")
    assert result.status == "finalized", result.error
    runtime = service._open[session.id]
    assert runtime.sandbox.workspace == Path(session.workspace)
    assert backend._held[session.id].sandbox is adopted and adopted.restarts == 0
    assert warm.ready == 1 and warm.worker_pss_bytes > 0
    health = service.sandbox_health()
    assert (health.backend, health.sessions) == ("local", 1)

    service.delete_session(session.id)
    assert not adopted.alive and service.sandbox_health().sessions == 0


def test_without_warm_no_sandbox_starts_ahead(open_service: ServiceFactory) -> None:
    service = open_service(sandbox_pool_size=2)
    assert isinstance(service.backend, LocalBackend) and service.backend.pool is None
    assert service.warm_sandboxes() == 0

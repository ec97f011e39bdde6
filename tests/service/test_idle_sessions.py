"""A session whose sandbox was stopped for idleness answers its next question from its committed state."""

from __future__ import annotations

import pandas as pd

from bunseki.samples import SALES_CSV
from bunseki.sandbox.local_backend import LocalBackend
from bunseki.service import AnalysisService
from bunseki.settings import Settings


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_an_evicted_session_is_restored_by_its_next_question(service_settings: Settings, sales: pd.DataFrame) -> None:
    clock = Clock()
    backend = LocalBackend(service_settings.model_copy(update={"session_idle_s": 600.0}), warm=False, clock=clock)
    service = AnalysisService(service_settings, backend=backend)
    try:
        session = service.create_session(SALES_CSV)
        assert service.run_turn(session.id, "地域別の売上合計は？").status == "finalized"
        assert service.run_turn(session.id, "その中で関東だけにして").status == "finalized"
        assert backend.health().sessions == 1
        clock.now += 601
        assert backend.reap() == 1 and backend.health().sessions == 0

        charted = service.run_turn(session.id, "前の結果をグラフにして")
        assert charted.status == "finalized", charted.error
        kanto = sales[sales["地域"] == "関東"]
        assert f"{kanto['売上金額'].sum():,}" in (charted.answer or "")  # the narrowed data, in a new sandbox
        assert backend.health().sessions == 1

        service.delete_session(session.id)
        assert backend.health().sessions == 0
    finally:
        service.close()
        backend.close()

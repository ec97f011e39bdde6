"""A question answered in a worker thread while the page follows it (`bunseki.ui.turns`)."""

from __future__ import annotations

from pathlib import Path

from bunseki.errors import ConfigurationError
from bunseki.service import AnalysisService
from bunseki.settings import Settings
from bunseki.ui import turns
from tests.ui.conftest import JapaneseTable

JOIN_S = 180  # a ceiling, never a measurement


def test_a_turn_runs_in_the_background_and_keeps_its_events(ui_workspace: Path, sales_table: JapaneseTable) -> None:
    with AnalysisService(Settings()) as service:
        session = service.create_session_from_upload(sales_table.name, sales_table.content)
        pending = turns.start(service, session.id, "地域別の売上合計をグラフにして")
        assert pending.worker is not None
        pending.worker.join(JOIN_S)
        assert pending.done and pending.error is None
        assert pending.result is not None and pending.result.status == "finalized"
        assert pending.number == 1
        kinds = [event["event"] for event in pending.events]
        assert kinds[0] == "turn_started" and kinds[-1] == "turn_finished"
        nodes = [event["node"] for event in pending.events if event["event"] == "node_started"]
        assert nodes == ["reason", "code_exec", "reason", "report"]
        assert sales_table.total("関東") in (pending.result.answer or "")


def test_a_turn_that_cannot_start_keeps_its_error(ui_workspace: Path, sales_table: JapaneseTable) -> None:
    with AnalysisService(Settings()) as service:
        session = service.create_session_from_upload(sales_table.name, sales_table.content)
        service.store.touch_session(session.id, model="openai:gpt-4o-mini")  # its key is gone since
        pending = turns.start(service, session.id, "売上金額の合計は？")
        assert pending.worker is not None
        pending.worker.join(JOIN_S)
        assert pending.done and pending.result is None and pending.number is None
        assert isinstance(pending.error, ConfigurationError)

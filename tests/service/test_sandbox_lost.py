"""A cell lost with its machine ends the turn in plain words, records nothing of it, and the session goes on."""

from __future__ import annotations

from collections.abc import Iterator

import pandas as pd
import pytest

from bunseki.errors import SandboxLost
from bunseki.samples import SALES_CSV
from bunseki.service import AnalysisService
from bunseki.service.sessions import LOST
from bunseki.settings import Settings
from tests.fakes.backends import LosingBackend


@pytest.fixture
def losing(service_settings: Settings) -> Iterator[tuple[AnalysisService, LosingBackend]]:
    backend = LosingBackend(service_settings, lose={2})  # the second cell run anywhere is lost
    service = AnalysisService(service_settings, backend=backend)
    yield service, backend
    service.close()
    backend.close()  # the service closes only a backend it opened


def test_a_lost_cell_ends_the_turn_and_the_session_continues_from_what_was_committed(
    losing: tuple[AnalysisService, LosingBackend], sales: pd.DataFrame
) -> None:
    service, backend = losing
    kanto = sales[sales["地域"] == "関東"]
    session = service.create_session(SALES_CSV)
    assert service.run_turn(session.id, "地域別の売上合計は？").status == "finalized"  # cell 1
    assert service.run_turn(session.id, "その中で関東だけにして").status == "finalized"  # a tool, no cell

    with pytest.raises(SandboxLost) as lost:
        service.run_turn(session.id, "前の結果をグラフにして")  # cell 2: its machine dies
    assert "ask again" in str(lost.value) and "もう一度質問してください" in str(lost.value)
    assert backend.lost == [session.id] and session.id in backend.stopped  # and the service let it go

    turns = service.store.list_turns(session.id)
    assert [turn.status for turn in turns] == ["finalized", "finalized", "error"]
    assert "SandboxLost" in (turns[-1].error or "")
    assert service.messages(session.id)[-1].content == LOST["ja"]
    assert [step.step_type for step in service.steps(session.id)] == ["code", "filter_data"]  # not the lost cell
    assert service.reports(session.id)[-1].turn_id == turns[1].id  # no report of the lost turn
    assert service.data_state(session.id)["rows"] == len(kanto)

    again = service.run_turn(session.id, "前の結果をグラフにして")  # a new sandbox, the committed data state
    assert again.status == "finalized", again.error
    assert f"{kanto['売上金額'].sum():,}" in (again.answer or "")
    assert [step.step_type for step in service.steps(session.id)] == ["code", "filter_data", "code"]
    assert [turn.status for turn in service.store.list_turns(session.id)][-1] == "finalized"


def test_an_english_question_gets_the_english_notice(losing: tuple[AnalysisService, LosingBackend]) -> None:
    service, backend = losing
    backend.lose = {1}
    session = service.create_session(SALES_CSV)
    with pytest.raises(SandboxLost):
        service.run_turn(session.id, "What is the total sales by region?")
    assert service.messages(session.id)[-1].content == LOST["en"]
    assert service.run_turn(session.id, "What is the total sales by region?").status == "finalized"

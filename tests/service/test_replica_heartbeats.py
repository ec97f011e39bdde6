"""A replica on another machine that died mid-turn frees its session once its heartbeat is stale (seconds),
not after the longest a turn can take; while it beats, its turn holds the session."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import pytest
from sqlalchemy import Engine

from bunseki.errors import SessionBusy
from bunseki.owners import process_owner
from bunseki.samples import SALES_CSV
from bunseki.service import AnalysisService
from bunseki.service.heartbeat import HEARTBEAT, Heartbeat
from bunseki.service.replicas import stale_after_s
from bunseki.service.sessions import INTERRUPTED
from bunseki.settings import Settings
from bunseki.store import Store, make_engine
from tests.conftest import ServiceFactory
from tests.support import age_beat

OTHER = "otherhost:123:456"  # a process on a machine this one cannot ask


@pytest.fixture
def raw(service_settings: Settings) -> Iterator[Engine]:
    engine = make_engine(service_settings.database)
    yield engine
    engine.dispose()


def test_a_dead_replica_on_another_machine_frees_the_session_once_its_beat_is_stale(
    open_service: ServiceFactory, raw: Engine
) -> None:
    service = open_service()
    session = service.create_session(SALES_CSV)
    left = service.store.start_turn(session_id=session.id, question="地域別の売上は？", owner=f"{OTHER}:abcd")
    service.store.add_message(session_id=session.id, role="user", content="地域別の売上は？", turn_id=left.id)

    with pytest.raises(SessionBusy, match="another process"):  # no beat yet: the turn is young, so it may run
        service.run_turn(session.id, "売上金額の合計は？")
    service.store.beat(OTHER)
    age_beat(raw, OTHER, stale_after_s(service.settings) - 5)
    with pytest.raises(SessionBusy, match="another process"):  # it beats: its turn holds the session
        service.run_turn(session.id, "売上金額の合計は？")
    assert [(m.role, m.content) for m in service.messages(session.id)] == [("user", "地域別の売上は？")]

    age_beat(raw, OTHER, stale_after_s(service.settings) + 1)  # three beats missed: it is gone
    notice = service.messages(session.id)[-1]
    assert (notice.role, notice.turn_id, notice.content) == ("assistant", left.id, INTERRUPTED["ja"])
    assert [t.status for t in service.turns(session.id)] == ["interrupted"]
    result = service.run_turn(session.id, "売上金額の合計は？")
    assert result.status == "finalized" and result.answer


def test_the_notice_speaks_the_language_of_the_lost_question(open_service: ServiceFactory, raw: Engine) -> None:
    service = open_service()
    session = service.create_session(SALES_CSV)
    left = service.store.start_turn(session_id=session.id, question="What is the total sales?", owner=f"{OTHER}:e")
    service.store.beat(OTHER)
    age_beat(raw, OTHER, stale_after_s(service.settings) + 1)
    assert [m.content for m in service.messages(session.id) if m.turn_id == left.id] == [INTERRUPTED["en"]]


def test_only_a_process_that_answers_questions_beats(service_settings: Settings) -> None:
    me = process_owner()
    with AnalysisService(service_settings) as service:
        session = service.create_session(SALES_CSV)
        service.list_sessions()
        service.messages(session.id)
        assert service._me not in HEARTBEAT.members()  # sessions listed, nothing answered: no beat, no thread
        assert service.store.beat_ages([me]) == {}
        assert service.run_turn(session.id, "売上金額の合計は？").status == "finalized"
        assert service._me in HEARTBEAT.members() and HEARTBEAT.running()
        assert service.store.beat_ages([me])[me] < 60
    assert service._me not in HEARTBEAT.members()
    with Store(service_settings.database, migrate=False) as store:
        assert store.beat_ages([me]) == {}  # a clean stop takes its row away


def test_the_thread_beats_until_the_last_service_of_the_process_leaves(database_url: str) -> None:
    owner = "host-x:1:1"
    heartbeat = Heartbeat(owner=lambda: owner)
    engine = make_engine(database_url)
    with Store(database_url) as store, Store(database_url, migrate=False) as other:
        before = set(threading.enumerate())
        heartbeat.join("a", store, 0.2)
        assert store.beat_ages([owner])[owner] < 60  # the first beat landed before join returned
        heartbeat.join("b", other, 0.2)  # a second service in the same process and database
        heartbeat.join("a", store, 0.2)  # joining twice is joining once
        started = [t for t in set(threading.enumerate()) - before if t.name == "bunseki-heartbeat"]
        assert len(started) == 1 and heartbeat.running()

        age_beat(engine, owner, 600)
        deadline = time.monotonic() + 30  # a bound, not a timing: the thread beats every 0.2 s
        while store.beat_ages([owner])[owner] > 60 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert store.beat_ages([owner])[owner] < 60, "the thread did not refresh the beat"

        heartbeat.leave("a")  # b is still in that database: the row stays, the thread runs
        assert owner in store.beat_ages([owner]) and heartbeat.running()
        heartbeat.leave("b")
        assert store.beat_ages([owner]) == {}
        assert not heartbeat.running() and not started[0].is_alive()
        heartbeat.leave("b")  # leaving again changes nothing
    engine.dispose()

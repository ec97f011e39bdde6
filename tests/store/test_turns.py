"""Turns: numbered per session, one running at a time, finished exactly once."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bunseki.domain import Session
from bunseki.errors import Conflict, NotFound, SessionBusy
from bunseki.store import Store


def test_start_turn_marks_it_running(store: Store, session: Session) -> None:
    turn = store.start_turn(session_id=session.id, question="月別の売上推移は？", owner="host:123:1700000000")
    assert (turn.session_id, turn.number, turn.status) == (session.id, 1, "running")
    assert (turn.question, turn.owner) == ("月別の売上推移は？", "host:123:1700000000")
    assert turn.finished_at is None
    assert turn.error is None
    assert store.running_turns(session.id) == [turn]
    assert store.list_turns(session.id) == [turn]


def test_turns_are_numbered_per_session(store: Store, make_session: Callable[..., Session]) -> None:
    first, second = make_session(), make_session()
    for session_id in (first.id, first.id, second.id, first.id):
        turn = store.start_turn(session_id=session_id, question="質問", owner=None)
        store.finish_turn(turn.id, status="finalized")
    assert [turn.number for turn in store.list_turns(first.id)] == [1, 2, 3]
    assert [turn.number for turn in store.list_turns(second.id)] == [1]


def test_a_second_turn_waits_for_the_running_one(store: Store, session: Session) -> None:
    running = store.start_turn(session_id=session.id, question="一つ目", owner="a")
    with pytest.raises(SessionBusy, match="1"):
        store.start_turn(session_id=session.id, question="二つ目", owner="b")
    assert store.list_turns(session.id) == [running]
    store.finish_turn(running.id, status="interrupted")
    assert store.start_turn(session_id=session.id, question="二つ目", owner="b").number == 2


def test_finish_turn_records_how_it_ended(store: Store, session: Session) -> None:
    turn = store.start_turn(session_id=session.id, question="相関は？", owner="a")
    finished = store.finish_turn(turn.id, status="error", error="サンドボックスが停止しました")
    assert (finished.status, finished.error) == ("error", "サンドボックスが停止しました")
    assert finished.finished_at is not None
    assert finished.finished_at >= finished.started_at == turn.started_at
    assert store.running_turns(session.id) == []
    assert store.list_turns(session.id) == [finished]


def test_a_turn_ends_only_once(store: Store, session: Session) -> None:
    turn = store.start_turn(session_id=session.id, question="質問", owner="a")
    finished = store.finish_turn(turn.id, status="asked")
    with pytest.raises(Conflict, match="asked"):
        store.finish_turn(turn.id, status="finalized")
    assert store.list_turns(session.id) == [finished]


def test_unknown_turns_and_sessions_are_not_found(store: Store) -> None:
    with pytest.raises(NotFound):
        store.start_turn(session_id="0" * 32, question="質問", owner="a")
    with pytest.raises(NotFound):
        store.finish_turn("0" * 32, status="finalized")
    assert store.list_turns("0" * 32) == []
    assert store.running_turns("0" * 32) == []

"""Messages and steps: positions from 1 per session, order kept, JSON (Japanese included) intact."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from sqlalchemy import Engine, text

from bunseki.domain import Session
from bunseki.errors import NotFound
from bunseki.store import Store

PARAMETERS = {"列": "地域", "演算子": "==", "値": ["東京都", "大阪府"], "件数": 3, "比率": 0.25, "空": None}
RESULT = {"行数": 1200, "要約": {"平均": 15234.5, "欠損": False}, "列": ["日付", "売上（円）"]}


def test_messages_are_numbered_in_order(store: Store, session: Session) -> None:
    turn = store.start_turn(session_id=session.id, question="売上は？", owner="a")
    asked = store.add_message(session_id=session.id, role="user", content="売上は？", turn_id=turn.id)
    answered = store.add_message(session_id=session.id, role="assistant", content="合計は1,234万円です。")
    assert (asked.position, asked.role, asked.turn_id) == (1, "user", turn.id)
    assert (answered.position, answered.role, answered.turn_id) == (2, "assistant", None)
    assert answered.content == "合計は1,234万円です。"
    assert store.list_messages(session.id) == [asked, answered]


def test_list_messages_can_return_the_last_few(store: Store, session: Session) -> None:
    messages = [store.add_message(session_id=session.id, role="user", content=f"質問{n}") for n in range(5)]
    assert store.list_messages(session.id, last=2) == messages[3:]
    assert store.list_messages(session.id, last=10) == messages
    assert store.list_messages(session.id, last=0) == []
    with pytest.raises(ValueError, match="last"):
        store.list_messages(session.id, last=-1)


def test_positions_are_per_session(store: Store, make_session: Callable[..., Session]) -> None:
    first, second = make_session(), make_session()
    for session_id in (first.id, second.id, first.id):
        store.add_message(session_id=session_id, role="user", content="こんにちは")
        store.add_step(session_id=session_id, step_type="describe", parameters={}, result=None)
    assert [message.position for message in store.list_messages(first.id)] == [1, 2]
    assert [message.position for message in store.list_messages(second.id)] == [1]
    assert [step.position for step in store.list_steps(first.id)] == [1, 2]
    assert [step.position for step in store.list_steps(second.id)] == [1]


def test_steps_keep_every_field_and_their_json(store: Store, session: Session) -> None:
    turn = store.start_turn(session_id=session.id, question="東京と大阪だけ", owner="a")
    step = store.add_step(
        session_id=session.id,
        step_type="filter_data",
        parameters=PARAMETERS,
        result=RESULT,
        turn_id=turn.id,
        rows_before=1200,
        rows_after=310,
        changes_data=True,
        duration_s=0.042,
    )
    assert (step.position, step.step_type, step.turn_id) == (1, "filter_data", turn.id)
    assert (step.rows_before, step.rows_after, step.changes_data, step.duration_s) == (1200, 310, True, 0.042)
    (fetched,) = store.list_steps(session.id)
    assert fetched == step
    assert fetched.parameters == PARAMETERS
    assert fetched.result == RESULT


@pytest.mark.parametrize("result", [None, "完了", 42, [1, "二", 3.5], True])
def test_a_step_result_may_be_any_json_value(store: Store, session: Session, result: object) -> None:
    store.add_step(session_id=session.id, step_type="code", parameters={"code": "df.head()"}, result=result)
    (step,) = store.list_steps(session.id)
    assert step.result == result
    assert (step.rows_before, step.rows_after, step.changes_data, step.duration_s) == (None, None, False, 0.0)


def test_json_is_stored_as_readable_japanese(store: Store, raw: Engine, session: Session) -> None:
    store.add_step(session_id=session.id, step_type="filter_data", parameters=PARAMETERS, result=RESULT)
    with raw.connect() as connection:
        stored = connection.execute(text("SELECT CAST(parameters AS TEXT) FROM steps")).scalar_one()
    assert "東京都" in stored
    assert "\\u" not in stored


def test_appending_to_an_unknown_session_or_a_foreign_turn_is_not_found(
    store: Store, make_session: Callable[..., Session]
) -> None:
    mine, other = make_session(), make_session()
    foreign = store.start_turn(session_id=other.id, question="別の質問", owner="a")
    with pytest.raises(NotFound):
        store.add_message(session_id="0" * 32, role="user", content="こんにちは")
    with pytest.raises(NotFound):
        store.add_message(session_id=mine.id, role="user", content="こんにちは", turn_id=foreign.id)
    with pytest.raises(NotFound):
        store.add_step(session_id="0" * 32, step_type="code", parameters={}, result=None)
    with pytest.raises(NotFound):
        store.add_step(session_id=mine.id, step_type="code", parameters={}, result=None, turn_id=foreign.id)
    assert store.list_messages(mine.id) == []
    assert store.list_steps(mine.id) == []


def test_clearing_messages_keeps_turns_and_steps(store: Store, make_session: Callable[..., Session]) -> None:
    session, other = make_session(), make_session()
    turn = store.start_turn(session_id=session.id, question="売上は？", owner="a")
    store.add_message(session_id=session.id, role="user", content="売上は？", turn_id=turn.id)
    store.add_message(session_id=session.id, role="assistant", content="1,234万円です。", turn_id=turn.id)
    store.add_step(session_id=session.id, step_type="code", parameters={}, result=None, turn_id=turn.id)
    kept = store.add_message(session_id=other.id, role="user", content="こんにちは")

    assert store.clear_messages(session.id) == 2
    assert store.list_messages(session.id) == []
    assert [t.id for t in store.list_turns(session.id)] == [turn.id]
    assert len(store.list_steps(session.id)) == 1
    assert store.list_messages(other.id) == [kept]
    again = store.add_message(session_id=session.id, role="user", content="続きです")
    assert again.position == 1
    with pytest.raises(NotFound):
        store.clear_messages("no-such-session")

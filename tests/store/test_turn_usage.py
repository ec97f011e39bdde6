"""A turn keeps what it cost and its trace; migration 0006 adds those columns and takes them away."""

from __future__ import annotations

from alembic import command
from sqlalchemy import Engine, inspect, text

from bunseki.domain import Session, TurnUsage
from bunseki.store import Store, migrate
from bunseki.store.db import alembic_config

USAGE = TurnUsage(
    model="openai:gpt-4o-mini", calls=3, prompt_tokens=1200, completion_tokens=340, seconds=2.5, cost=0.0004
)
TRACE = {"version": 1, "nodes": [{"name": "reason", "start_s": 0.0, "seconds": 1.2, "error": None}], "errors": []}
USAGE_COLUMNS = {"model", "llm_calls", "prompt_tokens", "completion_tokens", "llm_seconds", "cost", "trace"}


def _turn_columns(engine: Engine) -> set[str]:
    return {column["name"] for column in inspect(engine).get_columns("turns")}


def test_a_finished_turn_keeps_its_usage_and_trace(store: Store, session: Session) -> None:
    turn = store.start_turn(session_id=session.id, question="売上は？", owner=None)
    assert turn.usage is None and turn.trace is None  # nothing is known while it runs
    finished = store.finish_turn(turn.id, status="finalized", usage=USAGE, trace=TRACE)
    assert finished.usage == USAGE
    [listed] = store.list_turns(session.id)
    assert listed.usage == USAGE
    assert listed.trace == TRACE


def test_a_turn_finished_without_usage_has_none(store: Store, session: Session) -> None:
    turn = store.start_turn(session_id=session.id, question="売上は？", owner=None)
    store.finish_turn(turn.id, status="error", error="boom")
    [listed] = store.list_turns(session.id)
    assert listed.usage is None and listed.trace is None


def test_migration_0006_up_and_down_keeps_the_turns(store: Store, session: Session, raw: Engine) -> None:
    turn = store.start_turn(session_id=session.id, question="売上は？", owner=None)
    store.finish_turn(turn.id, status="finalized", usage=USAGE, trace=TRACE)
    assert _turn_columns(raw) >= USAGE_COLUMNS
    with raw.begin() as connection:
        command.downgrade(alembic_config(connection), "0005")
    assert not USAGE_COLUMNS & _turn_columns(raw)
    with raw.connect() as connection:
        assert connection.execute(text("SELECT status FROM turns")).scalars().all() == ["finalized"]
    migrate(raw)
    assert _turn_columns(raw) >= USAGE_COLUMNS
    [listed] = store.list_turns(session.id)
    assert listed.status == "finalized"
    assert listed.usage is None  # the usage went with the columns: unknown, not zero

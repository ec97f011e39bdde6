"""EDA runs and knowledge turns keep what they cost and their traces; migration 0008 adds those columns
and takes them away (SQLite and PostgreSQL)."""

from __future__ import annotations

from alembic import command
from sqlalchemy import Engine, inspect, text

from bunseki.domain import TurnUsage
from bunseki.store import Store, migrate
from bunseki.store.db import alembic_config

MODEL = "openai:gpt-4o-mini"
START = TurnUsage(model=MODEL, calls=3, prompt_tokens=1200, completion_tokens=340, seconds=2.5, cost=0.0004)
RESUME = TurnUsage(model=MODEL, calls=2, prompt_tokens=800, completion_tokens=60, seconds=1.25, cost=0.0001)
USAGE = {"llm_calls", "prompt_tokens", "completion_tokens", "llm_seconds", "cost", "trace"}


def _columns(engine: Engine, table: str) -> set[str]:
    return {column["name"] for column in inspect(engine).get_columns(table)}


def _trace(status: str) -> dict[str, object]:
    return {"version": 1, "status": status, "nodes": [], "model_calls": [], "executions": [], "errors": []}


def test_an_eda_run_sums_the_usage_of_the_calls_that_advanced_it(store: Store) -> None:
    run = store.create_eda_run(source="売上.csv", workspace="/w", model=MODEL)
    assert run.usage is None and run.trace is None  # nothing recorded yet: unknown, not zero
    store.set_eda_status(run.id, "awaiting_plan_review", usage=START, trace=_trace("awaiting_plan_review"))
    after = store.set_eda_status(run.id, "completed", usage=RESUME, trace=_trace("completed"))
    expected = TurnUsage(model=MODEL, calls=5, prompt_tokens=2000, completion_tokens=400, seconds=3.75, cost=0.0005)
    assert after.usage is not None and after.usage.cost is not None
    assert after.usage.model_copy(update={"cost": round(after.usage.cost, 10)}) == expected
    again = store.get_eda_run(run.id)
    assert again.usage == after.usage
    assert [segment["status"] for segment in again.trace or []] == ["awaiting_plan_review", "completed"]


def test_a_status_change_without_usage_leaves_the_sums_alone(store: Store) -> None:
    run = store.create_eda_run(source="売上.csv", workspace="/w", model=MODEL)
    store.set_eda_status(run.id, "awaiting_plan_review", usage=START, trace=_trace("awaiting_plan_review"))
    store.claim_eda_run(run.id, expected="awaiting_plan_review")
    after = store.set_eda_status(run.id, "error", error="boom")
    assert after.usage == START and after.trace is not None and len(after.trace) == 1


def test_an_unpriced_segment_keeps_the_priced_cost(store: Store) -> None:
    run = store.create_eda_run(source="売上.csv", workspace="/w", model=MODEL)
    store.set_eda_status(run.id, "awaiting_plan_review", usage=START.model_copy(update={"cost": None}))
    after = store.set_eda_status(run.id, "completed", usage=RESUME)
    assert after.usage is not None and after.usage.cost == RESUME.cost and after.usage.calls == 5


def test_a_knowledge_turn_keeps_its_usage_and_trace(store: Store) -> None:
    conversation = store.create_knowledge_conversation(collections=["manuals"], model=None)
    turn = store.add_knowledge_turn(
        conversation.id,
        question="配送は？",
        answer={"status": "answered"},
        collections=["manuals"],
        usage=START,
        trace=_trace("answered"),
    )
    assert turn.usage == START and turn.model == MODEL
    older = store.add_knowledge_turn(conversation.id, question="b", answer={}, collections=["manuals"])
    assert older.usage is None and older.trace is None
    first, _ = store.list_knowledge_turns(conversation.id)
    assert first.usage == START and first.trace == _trace("answered")


def test_migration_0008_up_and_down_keeps_the_rows(store: Store, raw: Engine) -> None:
    run = store.create_eda_run(source="売上.csv", workspace="/w", model=MODEL)
    store.set_eda_status(run.id, "completed", usage=START, trace=_trace("completed"))
    conversation = store.create_knowledge_conversation(collections=["manuals"], model=None)
    store.add_knowledge_turn(conversation.id, question="q", answer={}, collections=["m"], usage=START)
    assert _columns(raw, "eda_runs") >= USAGE and _columns(raw, "knowledge_turns") >= {"model", *USAGE}
    with raw.begin() as connection:
        command.downgrade(alembic_config(connection), "0007")
    assert not USAGE & _columns(raw, "eda_runs")
    assert not {"model", *USAGE} & _columns(raw, "knowledge_turns")
    with raw.connect() as connection:
        assert connection.execute(text("SELECT status FROM eda_runs")).scalars().all() == ["completed"]
        assert connection.execute(text("SELECT question FROM knowledge_turns")).scalars().all() == ["q"]
    migrate(raw)
    assert store.get_eda_run(run.id).usage is None  # the usage went with the columns: unknown, not zero
    [turn] = store.list_knowledge_turns(conversation.id)
    assert turn.usage is None and turn.question == "q"

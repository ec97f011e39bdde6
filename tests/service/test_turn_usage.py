"""Every model call of a session turn is counted, priced and traced, and stored with the turn."""

from __future__ import annotations

from typing import Any

import pytest

from bunseki.brain.analyst.llm import LLMAnalystBrain
from bunseki.errors import NotFound
from bunseki.samples import SALES_CSV
from tests.conftest import ServiceFactory
from tests.fakes.chat import scripted
from tests.fakes.usage import COMPLETION_TOKENS, COST, MODEL, PRICES, PROMPT_TOKENS, QUESTION, TOKENS, turn_replies


def test_a_turn_counts_every_model_call_and_keeps_its_trace(open_service: ServiceFactory) -> None:
    brain = LLMAnalystBrain(scripted(*turn_replies()), name=MODEL)
    service = open_service(brain=brain, llm_prices=PRICES)
    session = service.create_session(SALES_CSV, model=MODEL)
    result = service.run_turn(session.id, QUESTION)
    assert result.status == "finalized"
    usage = result.usage
    assert usage is not None
    assert (usage.model, usage.calls) == (MODEL, len(TOKENS))  # the rejected answer counts too
    assert (usage.prompt_tokens, usage.completion_tokens) == (PROMPT_TOKENS, COMPLETION_TOKENS)
    assert usage.cost is not None and abs(usage.cost - COST) < 1e-12
    [turn] = service.turns(session.id)
    assert turn.usage == usage
    trace = service.trace(session.id, turn.number)
    assert [node["name"] for node in trace["nodes"]] == ["reason", "code_exec", "reason", "report"]
    assert [call["node"] for call in trace["model_calls"]] == ["reason", "reason", "code_exec", "reason", "report"]
    assert [(call["prompt_tokens"], call["completion_tokens"]) for call in trace["model_calls"]] == TOKENS
    assert all(call["prompt_chars"] > 0 and call["error"] is None for call in trace["model_calls"])
    [cell] = trace["executions"]
    assert (cell["kind"], cell["ok"]) == ("cell", True)
    assert trace["status"] == "finalized" and trace["model"] == MODEL


def test_an_offline_turn_makes_no_model_calls(service: Any) -> None:
    session = service.create_session(SALES_CSV)
    result = service.run_turn(session.id, "地域別の売上合計は？")
    assert result.usage is not None and result.usage.offline
    assert (result.usage.calls, result.usage.prompt_tokens, result.usage.cost) == (0, 0, None)
    trace = service.trace(session.id)
    assert trace["model_calls"] == []
    assert "reason" in [node["name"] for node in trace["nodes"]]
    assert any(execution["ok"] for execution in trace["executions"])


def test_a_model_that_fails_is_in_the_trace(open_service: ServiceFactory) -> None:
    brain = LLMAnalystBrain(scripted(), name=MODEL)  # no reply scripted: the call raises
    service = open_service(brain=brain)
    session = service.create_session(SALES_CSV, model=MODEL)
    with pytest.raises(AssertionError, match="no scripted reply"):  # the fake's complaint ends the turn
        service.run_turn(session.id, QUESTION)
    [turn] = service.turns(session.id)
    assert turn.usage is not None and turn.usage.calls == 1
    trace = service.trace(session.id, 1)
    [call] = trace["model_calls"]
    assert call["error"] and "no scripted reply" in call["error"]
    assert trace["errors"]


def test_a_turn_without_a_trace_says_why(service: Any) -> None:
    session = service.create_session(SALES_CSV)
    with pytest.raises(NotFound, match="no turns yet"):
        service.trace(session.id)
    turn = service.store.start_turn(session_id=session.id, question=QUESTION, owner=None)
    with pytest.raises(NotFound, match="still running"):
        service.trace(session.id, 1)
    service.store.finish_turn(turn.id, status="interrupted", error="the process running it stopped")
    with pytest.raises(NotFound, match="stopped first"):
        service.trace(session.id, 1)
    with pytest.raises(NotFound, match="no turn 2"):
        service.trace(session.id, 2)

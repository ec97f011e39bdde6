"""Every model call of a session turn is counted, priced and traced, and stored with the turn."""

from __future__ import annotations

from typing import Any

import pytest
from langchain_core.messages import AIMessage

from bunseki.brain.llm import LLMBrain
from bunseki.brain.models import CodeGenOutput, ReasonOutput
from bunseki.report.models import ReportOutput, ReportSection
from bunseki.samples import SALES_CSV
from bunseki.settings import ModelPrice
from tests.conftest import ServiceFactory
from tests.fakes.chat import scripted, tool_call, tool_reply

PRICES = {"gpt-4o-mini": ModelPrice(prompt=0.15, completion=0.6)}


def counted(reply: AIMessage, prompt: int, completion: int) -> AIMessage:
    """``reply`` as a provider reports it: with the tokens the call took."""
    reply.usage_metadata = {"input_tokens": prompt, "output_tokens": completion, "total_tokens": prompt + completion}
    return reply


def replies() -> list[Any]:
    report = ReportOutput(
        title="数量の合計",
        conclusion="数量の合計を計算しました。",
        sections=[ReportSection(section_type="text", content="実行結果のとおりです。")],
    )
    return [
        counted(tool_call("ReasonOutput", {"next_action": "dance"}), 1000, 5),  # unusable: asked again
        counted(tool_reply(ReasonOutput(next_action="act", instruction="数量の合計", rationale="計算")), 1100, 40),
        counted(tool_reply(CodeGenOutput(code="print(df['数量'].sum())")), 900, 20),
        counted(tool_reply(ReasonOutput(next_action="finalize", rationale="答えが出た")), 1200, 15),
        counted(tool_reply(report), 1300, 80),
    ]


def test_a_turn_counts_every_model_call_and_keeps_its_trace(open_service: ServiceFactory) -> None:
    brain = LLMBrain(scripted(*replies()), name="openai:gpt-4o-mini")
    service = open_service(brain=brain, llm_prices=PRICES)
    session = service.create_session(SALES_CSV, model="openai:gpt-4o-mini")
    result = service.run_turn(session.id, "数量の合計は？")
    assert result.status == "finalized"
    usage = result.usage
    assert usage is not None
    assert (usage.model, usage.calls) == ("openai:gpt-4o-mini", 5)  # the rejected answer counts too
    assert (usage.prompt_tokens, usage.completion_tokens) == (5500, 160)
    assert usage.cost is not None and abs(usage.cost - (5500 * 0.15 + 160 * 0.6) / 1e6) < 1e-12
    [turn] = service.turns(session.id)
    assert turn.usage == usage
    trace = service.trace(session.id, turn.number)
    assert [node["name"] for node in trace["nodes"]] == ["reason", "code_exec", "reason", "report"]
    assert [call["node"] for call in trace["model_calls"]] == ["reason", "reason", "code_exec", "reason", "report"]
    assert [call["completion_tokens"] for call in trace["model_calls"]] == [5, 40, 20, 15, 80]
    assert all(call["prompt_chars"] > 0 and call["error"] is None for call in trace["model_calls"])
    [cell] = trace["executions"]
    assert (cell["kind"], cell["ok"]) == ("cell", True)
    assert trace["status"] == "finalized" and trace["model"] == "openai:gpt-4o-mini"


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
    brain = LLMBrain(scripted(), name="openai:gpt-4o-mini")  # no reply scripted: the call raises
    service = open_service(brain=brain)
    session = service.create_session(SALES_CSV, model="openai:gpt-4o-mini")
    with pytest.raises(AssertionError, match="no scripted reply"):  # the fake's complaint ends the turn
        service.run_turn(session.id, "数量の合計は？")
    [turn] = service.turns(session.id)
    assert turn.usage is not None and turn.usage.calls == 1
    trace = service.trace(session.id, 1)
    [call] = trace["model_calls"]
    assert call["error"] and "no scripted reply" in call["error"]
    assert trace["errors"]

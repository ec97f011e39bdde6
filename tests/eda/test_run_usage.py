"""An EDA run counts the model calls of each call that advances it (start, each resume) and adds them up."""

from __future__ import annotations

from pathlib import Path

import pytest

from bunseki.brain.eda.llm import LLMEdaBrain
from bunseki.service.eda import EdaService
from bunseki.settings import Settings
from tests.eda.test_llm_run import CODE, FINDING, PLAN, REPORT, WRONG
from tests.fakes.chat import scripted, tool_reply
from tests.fakes.usage import MODEL, PRICES, counted

# (prompt, completion) tokens of each scripted call: plan | wrong code, code, finding | report
TOKENS = [(700, 90), (800, 40), (850, 45), (600, 30), (1500, 300)]


def _priced(settings: Settings) -> Settings:
    return settings.model_copy(update={"llm_prices": PRICES})


def _sum(calls: list[tuple[int, int]]) -> tuple[int, int]:
    return sum(prompt for prompt, _ in calls), sum(completion for _, completion in calls)


def test_each_call_adds_its_model_calls_to_the_run(eda_settings: Settings, sales_file: Path) -> None:
    replies = [tool_reply(answer) for answer in (PLAN, WRONG, CODE, FINDING, REPORT)]
    model = scripted(*(counted(reply, *tokens) for reply, tokens in zip(replies, TOKENS, strict=True)))
    brain = LLMEdaBrain(model, name=MODEL)
    with EdaService(_priced(eda_settings), brains=lambda spec: brain) as service:
        run = service.start(sales_file, goal="売上の傾向", model=MODEL)
        assert run.usage is not None
        assert (run.usage.model, run.usage.calls) == (MODEL, 1)
        assert (run.usage.prompt_tokens, run.usage.completion_tokens) == TOKENS[0]
        run = service.resume(run.run_id, {"action": "approve"})
        assert run.usage is not None and run.usage.calls == 4
        assert (run.usage.prompt_tokens, run.usage.completion_tokens) == _sum(TOKENS[:4])
        run = service.resume(run.run_id, {"action": "approve"})
        assert run.status == "completed"
        listed = service.list()[0].usage
        segments = service.store.get_eda_run(run.run_id).trace
    usage = run.usage
    assert usage is not None and listed == usage
    prompt, completion = _sum(TOKENS)
    assert (usage.calls, usage.prompt_tokens, usage.completion_tokens) == (5, prompt, completion)
    assert usage.cost == pytest.approx((prompt * 0.15 + completion * 0.6) / 1_000_000)
    assert segments is not None
    assert [segment["call"] for segment in segments] == ["start", "resume (approve)", "resume (approve)"]
    assert [segment["status"] for segment in segments] == [
        "awaiting_plan_review",
        "awaiting_results_review",
        "completed",
    ]
    calls = [(call["prompt_tokens"], call["completion_tokens"]) for s in segments for call in s["model_calls"]]
    assert calls == TOKENS
    assert [node["name"] for node in segments[0]["nodes"]][:1] == ["validate_data"]
    assert any(execution["kind"] == "cell" for execution in segments[1]["executions"])


def test_an_offline_run_says_offline(eda_settings: Settings, sales_file: Path) -> None:
    with EdaService(eda_settings) as service:
        run = service.start(sales_file, model="offline")
    assert run.usage is not None and run.usage.offline
    assert (run.usage.calls, run.usage.prompt_tokens, run.usage.cost) == (0, 0, None)


def test_a_failed_model_call_is_counted(eda_settings: Settings, sales_file: Path) -> None:
    brain = LLMEdaBrain(scripted(), name=MODEL)  # no reply scripted: the planner's call raises
    with EdaService(eda_settings, brains=lambda spec: brain) as service:
        with pytest.raises(AssertionError, match="no scripted reply"):  # the fake's complaint ends the call
            service.start(sales_file, model=MODEL)
        [listed] = service.list()
        record = service.store.get_eda_run(listed.run_id)
    assert record.status == "error" and listed.usage == record.usage
    assert record.usage is not None and record.usage.calls == 1
    assert record.trace is not None
    [segment] = record.trace
    assert segment["model_calls"][0]["error"] and "no scripted reply" in segment["model_calls"][0]["error"]

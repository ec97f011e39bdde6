"""TurnRecorder reads tokens however a provider reports them, and keeps errors in the trace."""

from __future__ import annotations

from uuid import uuid4

from langchain_core.messages import AIMessage, HumanMessage
from langchain_core.outputs import ChatGeneration, Generation, LLMResult

from bunseki.tracing import TurnRecorder, tokens_of, tokens_of_error, turn_config


class Usage:
    def __init__(self, prompt: int, completion: int) -> None:
        self.prompt_tokens, self.completion_tokens = prompt, completion


class Completion:
    def __init__(self, usage: Usage | None) -> None:
        self.usage = usage


class CutOff(Exception):
    """Like openai's LengthFinishReasonError: the completion, usage included, rides on the error."""

    def __init__(self, usage: Usage | None) -> None:
        super().__init__("length limit reached")
        self.completion = Completion(usage)


def test_tokens_from_usage_metadata() -> None:
    message = AIMessage("x", usage_metadata={"input_tokens": 12, "output_tokens": 3, "total_tokens": 15})
    assert tokens_of(LLMResult(generations=[[ChatGeneration(message=message)]])) == (12, 3)


def test_tokens_from_llm_output_as_openai_and_anthropic_write_it() -> None:
    plain = [[Generation(text="x")]]
    openai = LLMResult(generations=plain, llm_output={"token_usage": {"prompt_tokens": 7, "completion_tokens": 2}})
    anthropic = LLMResult(generations=plain, llm_output={"usage": {"input_tokens": 9, "output_tokens": 4}})
    assert tokens_of(openai) == (7, 2)
    assert tokens_of(anthropic) == (9, 4)
    assert tokens_of(LLMResult(generations=plain)) == (0, 0)


def test_tokens_a_failed_call_still_spent() -> None:
    assert tokens_of_error(CutOff(Usage(100, 48))) == (100, 48)
    try:
        raise RuntimeError("wrapped") from CutOff(Usage(5, 6))
    except RuntimeError as wrapped:
        assert tokens_of_error(wrapped) == (5, 6)
    assert tokens_of_error(CutOff(None)) == (0, 0)
    assert tokens_of_error(TimeoutError("slow")) == (0, 0)


def test_a_failed_call_is_counted_with_its_error() -> None:
    recorder = TurnRecorder()
    ok, failed = uuid4(), uuid4()
    recorder.on_chat_model_start({}, [[HumanMessage("abcd")]], run_id=ok, metadata={"langgraph_node": "reason"})
    message = AIMessage("x", usage_metadata={"input_tokens": 10, "output_tokens": 2, "total_tokens": 12})
    recorder.on_llm_end(LLMResult(generations=[[ChatGeneration(message=message)]]), run_id=ok)
    recorder.on_llm_start({}, ["prompt"], run_id=failed, metadata={"langgraph_node": "report"})
    recorder.on_llm_error(CutOff(Usage(30, 8)), run_id=failed)
    usage = recorder.usage("openai:x", {})
    assert (usage.calls, usage.prompt_tokens, usage.completion_tokens, usage.cost) == (2, 40, 10, None)
    trace = recorder.trace(model="openai:x", status="error", error="the report failed")
    first, second = trace["model_calls"]
    assert (first["node"], first["prompt_chars"], first["error"]) == ("reason", 4, None)
    assert second["node"] == "report" and "CutOff" in second["error"]
    assert [error["where"] for error in trace["errors"]] == ["model call (report)", "turn"]


def test_node_errors_and_progress_events_are_in_the_trace() -> None:
    recorder = TurnRecorder()
    root, node = uuid4(), uuid4()
    recorder.on_chain_start({}, {}, run_id=root, name="LangGraph")
    recorder.on_chain_start(
        {}, {}, run_id=node, parent_run_id=root, name="tool_exec", metadata={"langgraph_node": "tool_exec"}
    )
    listen = recorder.relay(None)
    listen({"event": "node_started", "node": "tool_exec"})
    listen({"event": "tool", "tool": "filter_data", "success": False, "summary": "ToolRetry: no column 県"})
    listen({"event": "code", "code": "print(1)"})
    listen({"event": "execution", "success": True, "stdout": "1"})
    recorder.on_chain_error(KeyError("県"), run_id=node)
    trace = recorder.trace(model="offline", status="error")
    [entry] = trace["nodes"]
    assert entry["name"] == "tool_exec" and "KeyError" in entry["error"]
    tool, cell = trace["executions"]
    assert (tool["kind"], tool["name"], tool["ok"]) == ("tool", "filter_data", False)
    assert "no column" in tool["error"]
    assert (cell["kind"], cell["ok"], cell["error"]) == ("cell", True, None)
    assert [error["where"] for error in trace["errors"]] == ["tool_exec"]


def test_relay_passes_every_event_on() -> None:
    seen: list[dict[str, object]] = []
    listen = TurnRecorder().relay(seen.append)
    listen({"event": "node_started", "node": "reason"})
    assert seen == [{"event": "node_started", "node": "reason"}]


def test_the_turn_config_names_the_turn_for_langsmith() -> None:
    recorder = TurnRecorder()
    config = turn_config(recorder, bunseki_session_id="s1", bunseki_turn=2)
    assert config["callbacks"] == [recorder]
    assert config["metadata"] == {"bunseki_session_id": "s1", "bunseki_turn": 2}
    assert "bunseki_session_id:s1" in config["tags"]

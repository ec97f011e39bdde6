"""The knowledge chat's final answer streamed as the Reflection writes it: only the text after
``Final Answer:``, the marker found even when it is split across chunks, a reset and the kept
answer when ``finish`` keeps another, nothing from a brain that does not stream."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langchain_core.outputs import ChatGenerationChunk
from pydantic import Field

from bunseki.agents.knowledge import KnowledgeContext, build, recursion_limit
from bunseki.brain.knowledge.contract import KnowledgeBrain, KnowledgeView
from bunseki.brain.knowledge.llm import LLMKnowledgeBrain
from bunseki.brain.knowledge.offline import OfflineKnowledgeBrain
from bunseki.brain.streaming import streaming_answer
from bunseki.domain import Event, streamed_answer
from bunseki.tracing import TurnRecorder, turn_config
from tests.agents.test_knowledge_graph import FakeKnowledgeBase
from tests.fakes.chat import ScriptedChatModel, tool_call
from tests.fakes.usage import counted

QUESTION = "複数のプロセスから Qdrant を使うには？"
SEARCH = tool_call("search_rag_knowledge_base", {"query": "Qdrant 複数プロセス"})
DRAFT = "QDRANT_URL を設定します。[1]"
THOUGHT = "草稿は資料の記述どおりで、引用も合っています。"
FINAL = "QDRANT_URL に サーバーの URL を 設定してください。[1]"
REFLECTION = f"Thought: {THOUGHT}\nFinal Answer: {FINAL}"


def reflection_model(*reflections: str, draft: str = DRAFT, breaks: int = 0) -> ScriptedChatModel:
    """Searches, drafts ``draft``, then writes each of ``reflections`` in turn (one per Reflection
    call); the first ``breaks`` streamed answers break off after a few chunks."""
    replies = iter([SEARCH, AIMessage(draft), *(AIMessage(text) for text in reflections)])
    return BreaksOff(messages=replies, breaks=breaks)


def run(
    brain: KnowledgeBrain, *, listened: bool = True, recorder: TurnRecorder | None = None
) -> tuple[dict[str, Any], list[Event]]:
    """The graph's final state, and every event it sent while the model wrote."""
    context = KnowledgeContext(knowledge_base=FakeKnowledgeBase(), brain=brain, stream_answer=listened)
    inputs = {"messages": [HumanMessage(QUESTION)], "question": QUESTION, "collections": ["manuals"]}
    events: list[Event] = []
    state: dict[str, Any] = {}
    config: Any = {"recursion_limit": recursion_limit(), **(turn_config(recorder) if recorder else {})}
    for mode, value in build().stream(inputs, config, context=context, stream_mode=["custom", "values"]):
        if mode == "custom":
            events.append(value)
        else:
            state = value
    return state, events


def llm(model: ScriptedChatModel) -> LLMKnowledgeBrain:
    return LLMKnowledgeBrain(model, name="fake:model")


def kinds(events: list[Event]) -> list[str]:
    return [str(event["event"]) for event in events]


def deltas(events: list[Event]) -> list[str]:
    return [str(event["text"]) for event in events if event["event"] == "answer_delta"]


def index_of(events: list[Event], name: str, **fields: Any) -> int:
    return next(i for i, e in enumerate(events) if e["event"] == name and all(e.get(k) == v for k, v in fields.items()))


def test_the_final_answer_streams_between_the_reflection_start_and_its_record() -> None:
    model = reflection_model(REFLECTION)
    state, events = run(llm(model))
    assert state["status"] == "answered" and state["final"] == FINAL
    assert model.streamed == [3]  # the Reflection streamed; the loop's own calls did not
    pieces = [i for i, kind in enumerate(kinds(events)) if kind == "answer_delta"]
    started = index_of(events, "node_started", node="reflect")
    recorded = index_of(events, "thought", kind="reflection")  # sent once the model's call returned
    assert len(pieces) >= 4 and started < pieces[0] and pieces[-1] < recorded
    assert "answer_reset" not in kinds(events)
    assert "".join(deltas(events)) == streamed_answer(events) == FINAL
    assert all(deltas(events))


def test_the_streamed_reflection_is_still_counted_by_the_turns_recorder() -> None:
    model = reflection_model()
    model.messages = iter([SEARCH, counted(AIMessage(DRAFT), 300, 20), counted(AIMessage(REFLECTION), 500, 40)])
    recorder = TurnRecorder()
    state, events = run(llm(model), recorder=recorder)
    assert model.streamed == [3] and streamed_answer(events) == state["final"] == FINAL
    usage = recorder.usage("openai:fake", {})
    assert (usage.calls, usage.prompt_tokens, usage.completion_tokens) == (3, 800, 60)


@pytest.mark.parametrize("piece", [1, 2, 5])
@pytest.mark.parametrize("marker", ["Final Answer:", "Final Answer：", "final answer :", "**Final Answer**:"])
def test_the_marker_is_found_when_chunks_split_it_and_nothing_before_it_is_sent(piece: int, marker: str) -> None:
    model = reflection_model(f"Thought: {THOUGHT} Final と書く前に確かめます。\n{marker} {FINAL}")
    model.content_piece = piece
    state, events = run(llm(model))
    assert state["final"] == FINAL
    shown = "".join(deltas(events))
    assert shown == FINAL and "answer_reset" not in kinds(events)
    assert len(deltas(events)) >= len(FINAL) // piece // 2  # it came in pieces, not at the end
    for leaked in (THOUGHT, "Thought", "Final", "確かめ", "："):
        assert leaked not in shown


def test_when_finish_keeps_the_draft_the_stream_is_reset_and_the_draft_follows() -> None:
    model = reflection_model(f"Thought: 補足します。\nFinal Answer: {DRAFT} サーバーは 48 台 必要です。")
    state, events = run(llm(model))
    assert state["status"] == "answered" and state["final"] == DRAFT  # the Reflection's 48 is in no passage
    reset = index_of(events, "answer_reset")
    assert deltas(events[:reset]) and "48" in "".join(deltas(events[:reset]))  # the Reflection's text was shown
    assert events[reset + 1] == {"event": "answer_delta", "text": DRAFT}
    assert reset + 1 < index_of(events, "finished")
    assert streamed_answer(events) == state["final"]


def test_an_answer_replaced_by_the_unanswered_text_ends_the_stream_with_that_text() -> None:
    model = reflection_model(
        "Thought: 数字を足します。\nFinal Answer: サーバーを 48 台 用意します。[1]", draft="36 台です。[1]"
    )
    state, events = run(llm(model))
    assert state["status"] == "unanswered"  # neither 48 nor 36 is in a passage
    assert kinds(events)[-3:] == ["answer_reset", "answer_delta", "finished"]
    assert streamed_answer(events) == state["final"] and "未回答" in state["final"]


def test_an_abstention_is_not_shown_as_it_is_written() -> None:
    state, events = run(llm(reflection_model("Thought: 資料にありません。\nFinal Answer: [[NO_ANSWER]] 記載なし")))
    assert state["status"] == "unanswered"
    assert not [kind for kind in kinds(events) if kind.startswith("answer_")]


def test_a_reflection_without_a_final_answer_streams_nothing_and_the_draft_stands() -> None:
    state, events = run(llm(reflection_model(f"Thought: {THOUGHT} 問題ありません。")))
    assert state["final"] == DRAFT
    assert not [kind for kind in kinds(events) if kind.startswith("answer_")]


def test_a_stream_that_breaks_off_is_withdrawn_and_asked_again() -> None:
    model = reflection_model(
        f"Thought: {THOUGHT}\nFinal Answer: 途中で 切れる 答え の 下書き です。", REFLECTION, breaks=1
    )
    state, events = run(llm(model))
    assert model.streamed == [3, 4]
    reset = index_of(events, "answer_reset")
    assert "".join(deltas(events[:reset])) and "".join(deltas(events[reset:])) == FINAL
    assert state["final"] == FINAL == streamed_answer(events)


def test_a_stream_that_breaks_every_time_is_withdrawn_and_the_draft_stands() -> None:
    broken = f"Thought: {THOUGHT}\nFinal Answer: 途中で 切れる 答え の 下書き です。"
    model = reflection_model(broken, broken, breaks=2)
    state, events = run(llm(model))
    assert model.streamed == [3, 4]  # asked once more, not more
    assert state["status"] == "answered" and state["final"] == DRAFT
    assert kinds(events).count("answer_reset") == 2 and streamed_answer(events) == ""
    assert "切れる" in "".join(deltas(events))  # it had been shown before it broke off


def test_nobody_listening_means_no_stream_and_the_same_answer() -> None:
    model = reflection_model(REFLECTION)
    state, events = run(llm(model), listened=False)
    assert state["final"] == FINAL and model.streamed == []
    assert not [kind for kind in kinds(events) if kind.startswith("answer_")]


def test_the_offline_brain_streams_nothing_and_answers_as_before() -> None:
    listened, events = run(OfflineKnowledgeBrain())
    unheard, _ = run(OfflineKnowledgeBrain(), listened=False)
    assert listened["status"] == unheard["status"] == "answered"
    assert listened["final"] == unheard["final"] and "QDRANT_URL" in listened["final"]
    assert not [kind for kind in kinds(events) if kind.startswith("answer_")]


class BreaksOff(ScriptedChatModel):
    """Its first ``breaks`` streamed answers break off after a few chunks, as a reset connection does."""

    breaks: int = 0

    def _stream(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> Iterator[ChatGenerationChunk]:
        for number, chunk in enumerate(super()._stream(messages, stop, run_manager, **kwargs)):
            if number == 12 and len(self.streamed) <= self.breaks:
                raise ConnectionResetError("connection reset by peer")
            yield chunk


class Logged(ScriptedChatModel):
    """Writes into ``log`` when its stream has ended, in the thread the deltas are sent from."""

    log: list[Event] = Field(default_factory=list)

    def _stream(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> Iterator[ChatGenerationChunk]:
        yield from super()._stream(messages, stop, run_manager, **kwargs)
        self.log.append({"event": "stream_ended"})


def test_the_deltas_arrive_while_the_model_is_still_writing() -> None:
    model = Logged(messages=iter([AIMessage(REFLECTION)]))
    view = KnowledgeView(question=QUESTION, language="ja", collections=["manuals"], draft="check")
    with streaming_answer(model.log.append):
        reply = llm(model).reflect(view)
    assert reply == REFLECTION
    ended = kinds(model.log).index("stream_ended")
    assert ended == len(model.log) - 1 and len(deltas(model.log[:ended])) >= 4
    assert "".join(deltas(model.log)) == FINAL

"""The knowledge service streams the final answer to whoever follows a question, and only to them;
what the listener is shown last is the answer returned and stored."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from bunseki.brain.knowledge.llm import LLMKnowledgeBrain
from bunseki.domain import Event, streamed_answer
from bunseki.service.knowledge import KnowledgeService
from bunseki.settings import Settings
from tests.agents.test_knowledge_graph import FakeKnowledgeBase
from tests.agents.test_knowledge_streaming import DRAFT, FINAL, QUESTION, REFLECTION, reflection_model
from tests.fakes.chat import ScriptedChatModel

MODEL = "openai:fake"
Opener = Callable[[ScriptedChatModel], KnowledgeService]


@pytest.fixture
def open_knowledge(settings: Settings) -> Iterator[Opener]:
    opened: list[KnowledgeService] = []

    def open_one(model: ScriptedChatModel) -> KnowledgeService:
        brain = LLMKnowledgeBrain(model, name=MODEL)
        service = KnowledgeService(settings, knowledge_base=FakeKnowledgeBase(), brains={MODEL: brain})
        opened.append(service)
        return service

    yield open_one
    for service in opened:
        service.close()


def test_a_listener_sees_the_answer_as_it_is_written(open_knowledge: Opener) -> None:
    model = reflection_model(REFLECTION)
    events: list[Event] = []
    answer = open_knowledge(model).ask(QUESTION, ["manuals"], MODEL, on_event=events.append)
    assert answer.status == "answered" and answer.answer == FINAL
    names = [event["event"] for event in events]
    assert names.count("answer_delta") >= 4 and "answer_reset" not in names
    assert names.index("answer_delta") > names.index("observation")  # after the search, in the Reflection
    assert streamed_answer(events) == answer.answer
    assert model.streamed == [3]


def test_without_a_listener_nothing_streams_and_the_answer_is_the_same(open_knowledge: Opener) -> None:
    model = reflection_model(REFLECTION)
    answer = open_knowledge(model).ask(QUESTION, ["manuals"], MODEL)
    assert answer.status == "answered" and answer.answer == FINAL
    assert model.streamed == []  # the model was not asked to stream


def test_a_conversation_stores_what_the_listener_was_shown_last(open_knowledge: Opener) -> None:
    model = reflection_model(f"Thought: 補足します。\nFinal Answer: {DRAFT} サーバーは 48 台 必要です。")
    service = open_knowledge(model)
    conversation = service.start_conversation(["manuals"], MODEL)
    events: list[Event] = []
    answer = service.ask_in_conversation(conversation.id, QUESTION, on_event=events.append)
    assert answer.answer == DRAFT and answer.reflection.changed is False
    assert "answer_reset" in [event["event"] for event in events]
    [turn] = service.conversation(conversation.id).turns
    assert streamed_answer(events) == turn.answer.answer == DRAFT

"""A knowledge answer counts its model calls (ReAct steps and Reflection); a conversation's turn keeps
that usage and its trace in the store (SQLite and PostgreSQL)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from langchain_core.messages import AIMessage, BaseMessage

from bunseki.brain.knowledge.llm import LLMKnowledgeBrain
from bunseki.service.knowledge import KnowledgeService
from bunseki.settings import Settings
from bunseki.store import Store
from tests.agents.test_knowledge_graph import FakeKnowledgeBase
from tests.fakes.chat import ScriptedChatModel, scripted
from tests.fakes.usage import MODEL, PRICES, counted

QUESTION = "複数プロセスで使うには？"
# (prompt, completion) tokens of each call: the search, the draft, Reflection
TOKENS = [(400, 30), (650, 25), (700, 40)]


def _replies() -> list[AIMessage]:
    search = AIMessage(
        "Qdrant の設定を探します。",
        tool_calls=[{"name": "search_rag_knowledge_base", "args": {"query": "Qdrant 複数プロセス"}, "id": "c1"}],
    )
    draft = AIMessage("QDRANT_URL にサーバーの URL を設定してください。[1]")
    reflection = AIMessage("Final Answer: QDRANT_URL にサーバーの URL を設定してください。[1]")
    return [counted(reply, *tokens) for reply, tokens in zip([search, draft, reflection], TOKENS, strict=True)]


class Unreachable(ScriptedChatModel):
    """Answers its scripted replies, then its server cannot be reached."""

    def _generate(self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None, **kwargs: Any) -> Any:
        try:
            return super()._generate(messages, stop, run_manager, **kwargs)
        except AssertionError:  # no reply left
            raise ConnectionError("connection refused") from None


@pytest.fixture
def store(database_url: str) -> Iterator[Store]:
    with Store(database_url) as opened:
        yield opened


def _service(settings: Settings, store: Store, model: ScriptedChatModel) -> KnowledgeService:
    brain = LLMKnowledgeBrain(model, name=MODEL)
    priced = settings.model_copy(update={"llm_prices": PRICES})
    return KnowledgeService(priced, knowledge_base=FakeKnowledgeBase(), store=store, brains={MODEL: brain})


def test_an_answer_counts_every_model_call(settings: Settings, store: Store) -> None:
    with _service(settings, store, scripted(*_replies())) as service:
        answer = service.ask(QUESTION, ["manuals"], MODEL)
    assert answer.status == "answered"
    usage = answer.usage
    assert usage is not None and (usage.model, usage.calls) == (MODEL, 3)
    prompt, completion = sum(p for p, _ in TOKENS), sum(c for _, c in TOKENS)
    assert (usage.prompt_tokens, usage.completion_tokens) == (prompt, completion)
    assert usage.cost == pytest.approx((prompt * 0.15 + completion * 0.6) / 1_000_000)


def test_a_conversation_turn_keeps_its_usage_and_trace(settings: Settings, store: Store) -> None:
    with _service(settings, store, scripted(*_replies())) as service:
        conversation = service.start_conversation(["manuals"], MODEL)
        answer = service.ask_in_conversation(conversation.id, QUESTION)
        [turn] = service.conversation(conversation.id).turns
    assert answer.usage is not None and turn.answer.usage == answer.usage
    [record] = store.list_knowledge_turns(conversation.id)
    assert record.usage == answer.usage and "usage" not in record.answer  # one place: its columns
    trace: dict[str, Any] = record.trace or {}
    assert trace["status"] == "answered" and trace["model"] == MODEL
    assert [(c["prompt_tokens"], c["completion_tokens"]) for c in trace["model_calls"]] == TOKENS
    assert trace["nodes"] and all(call["error"] is None for call in trace["model_calls"])


def test_a_failed_model_call_is_counted(settings: Settings, store: Store) -> None:
    model = Unreachable(messages=iter(_replies()[:1]))  # the second call fails
    with _service(settings, store, model) as service:
        conversation = service.start_conversation(["manuals"], MODEL)
        answer = service.ask_in_conversation(conversation.id, QUESTION)
    assert answer.status == "error"
    assert answer.usage is not None and answer.usage.calls == 2 and answer.usage.prompt_tokens == TOKENS[0][0]
    [record] = store.list_knowledge_turns(conversation.id)
    assert record.trace is not None and record.trace["status"] == "error"
    assert "connection refused" in (record.trace["model_calls"][1]["error"] or "")

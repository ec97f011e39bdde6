"""The knowledge endpoints' event streams carry the final answer as a streaming model writes it;
a JSON request follows nothing, so nothing is streamed."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import ExitStack
from typing import Any

import pytest
from fastapi.testclient import TestClient

from bunseki.api import create_app
from bunseki.brain.knowledge.llm import LLMKnowledgeBrain
from bunseki.domain import streamed_answer
from bunseki.service import AnalysisService
from bunseki.service.knowledge import KnowledgeService
from tests.agents.test_knowledge_graph import FakeKnowledgeBase
from tests.agents.test_knowledge_streaming import DRAFT, FINAL, QUESTION, REFLECTION, reflection_model
from tests.api.test_knowledge_api import events_of
from tests.fakes.chat import ScriptedChatModel

BASE = "/api/v1/knowledge"
MODEL = "openai:fake"
SSE = {"Accept": "text/event-stream"}
ASKED = {"question": QUESTION, "collections": ["manuals"], "model": MODEL}


ClientFor = Callable[[ScriptedChatModel], TestClient]


@pytest.fixture
def client_for(service: AnalysisService) -> Iterator[ClientFor]:
    """A client (a new user's key) of an app whose knowledge chat searches a fake base with ``model``."""
    with ExitStack() as stack:

        def client(model: ScriptedChatModel) -> TestClient:
            brains = {MODEL: LLMKnowledgeBrain(model, name=MODEL)}
            base = FakeKnowledgeBase()
            knowledge = stack.enter_context(
                KnowledgeService(service.settings, store=service.store, knowledge_base=base, brains=brains)
            )
            opened = stack.enter_context(TestClient(create_app(service=service, knowledge=knowledge)))
            _, key = service.accounts.create(f"user-{id(model)}")
            opened.headers["Authorization"] = f"Bearer {key}"
            return opened

        yield client


def streamed(client: TestClient, url: str, body: dict[str, Any]) -> list[tuple[str, Any]]:
    with client.stream("POST", url, json=body, headers=SSE) as reply:
        assert reply.status_code == 200
        return events_of(reply.read().decode())


def test_ask_streams_the_final_answer_before_the_result(client_for: ClientFor) -> None:
    model = reflection_model(REFLECTION)
    events = streamed(
        client_for(model), f"{BASE}/ask", {"question": QUESTION, "collections": ["manuals"], "model": MODEL}
    )
    names = [name for name, _ in events]
    deltas = [i for i, name in enumerate(names) if name == "answer_delta"]
    assert len(deltas) >= 4 and names.index("observation") < deltas[0] and deltas[-1] < names.index("finished")
    assert names[-1] == "result" and "answer_reset" not in names
    assert all(set(data) == {"event", "text"} and data["text"] for name, data in events if name == "answer_delta")
    answer = events[-1][1]
    assert answer["status"] == "answered"
    assert streamed_answer([data for name, data in events[:-1]]) == answer["answer"] == FINAL
    assert model.streamed == [3]


def test_a_json_question_is_not_streamed(client_for: ClientFor) -> None:
    model = reflection_model(REFLECTION)
    reply = client_for(model).post(
        f"{BASE}/ask", json={"question": QUESTION, "collections": ["manuals"], "model": MODEL}
    )
    assert reply.status_code == 200 and reply.json()["answer"] == FINAL
    assert model.streamed == []


def test_a_conversation_message_streams_and_ends_with_the_kept_answer(client_for: ClientFor) -> None:
    client = client_for(reflection_model(f"Thought: 補足します。\nFinal Answer: {DRAFT} サーバーは 48 台 必要です。"))
    conversation = client.post(f"{BASE}/conversations", json={"collections": ["manuals"], "model": MODEL}).json()
    url = f"{BASE}/conversations/{conversation['id']}"
    events = streamed(client, f"{url}/messages", {"question": QUESTION})
    names = [name for name, _ in events]
    assert "answer_delta" in names and names.index("answer_reset") < names.index("finished")
    answer = events[-1][1]
    assert streamed_answer([data for name, data in events[:-1]]) == answer["answer"] == DRAFT
    assert client.get(url).json()["turns"][-1]["answer"]["answer"] == DRAFT

"""What a turn cost, over HTTP: in the chat answer, the session's turns and each answer message."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from bunseki.api import create_app
from bunseki.brain.analyst.llm import LLMAnalystBrain
from tests.api.conftest import PREFIX, ClientFactory, ask, start
from tests.conftest import ServiceFactory
from tests.fakes.chat import scripted
from tests.fakes.usage import COMPLETION_TOKENS, COST, MODEL, PRICES, PROMPT_TOKENS, QUESTION, TOKENS, turn_replies


@pytest.fixture
def priced(open_service: ServiceFactory) -> Iterator[TestClient]:
    """A single-user API whose sessions answer with the scripted, token-counting model."""
    brain = LLMAnalystBrain(scripted(*turn_replies()), name=MODEL)
    service = open_service(brain=brain, llm_prices=PRICES, api_single_user=True)
    with TestClient(create_app(service=service)) as client:
        yield client


def test_the_chat_answer_says_what_the_turn_cost(priced: TestClient) -> None:
    session = start(priced)
    answer = ask(priced, session, QUESTION)
    assert answer["status"] == "finalized"
    usage = answer["usage"]
    assert usage["model"] == MODEL and usage["calls"] == len(TOKENS)
    assert (usage["prompt_tokens"], usage["completion_tokens"]) == (PROMPT_TOKENS, COMPLETION_TOKENS)
    assert usage["cost"] == pytest.approx(COST)
    assert usage["seconds"] >= 0

    shown = priced.get(f"{PREFIX}/sessions/{session}").json()
    [turn] = shown["turns"]
    assert (turn["number"], turn["status"], turn["usage"]) == (1, "finalized", usage)

    messages = priced.get(f"{PREFIX}/sessions/{session}/messages").json()
    assert [(m["role"], m["usage"]) for m in messages] == [("user", None), ("assistant", usage)]


def test_an_offline_turn_says_offline(app_for: ClientFactory) -> None:
    api = app_for("alice")
    session = start(api)
    answer = ask(api, session, "地域別の売上合計は？")
    assert answer["usage"] == {
        "model": "offline",
        "calls": 0,
        "prompt_tokens": 0,
        "completion_tokens": 0,
        "seconds": 0.0,
        "cost": None,
    }
    fresh = start(api)
    assert api.get(f"{PREFIX}/sessions/{fresh}").json()["turns"] == []

"""EDA runs, knowledge answers and conversations, and investigations carry a `usage` object over HTTP,
with the fields of an analysis turn's: numbers from scripted models that report their tokens."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from bunseki.api import create_app
from bunseki.brain.eda.llm import LLMEdaBrain
from bunseki.brain.knowledge.llm import LLMKnowledgeBrain
from bunseki.service import AnalysisService
from bunseki.service.eda import EdaService
from bunseki.service.investigation_runs import InvestigationRuns
from bunseki.service.knowledge import KnowledgeService
from tests.agents.test_knowledge_graph import FakeKnowledgeBase
from tests.api.test_investigations_api import sample_case_zip
from tests.eda.conftest import SALES
from tests.eda.test_llm_run import CODE, FINDING, PLAN, REPORT, WRONG
from tests.eda.test_run_usage import TOKENS as EDA_TOKENS
from tests.eda.test_run_usage import _sum
from tests.fakes.chat import scripted, tool_reply
from tests.fakes.usage import MODEL, PRICES, counted
from tests.investigator.test_run_usage import LightInvestigator
from tests.service.test_knowledge_usage import QUESTION
from tests.service.test_knowledge_usage import TOKENS as KNOWLEDGE_TOKENS
from tests.service.test_knowledge_usage import _replies as knowledge_replies

USAGE_FIELDS = {"model", "calls", "prompt_tokens", "completion_tokens", "seconds", "cost"}


def _cost(prompt: int, completion: int) -> float:
    return (prompt * 0.15 + completion * 0.6) / 1_000_000


def _client(service: AnalysisService, **services: Any) -> TestClient:
    client = TestClient(create_app(service=service, **services))
    _, key = service.accounts.create("alice")
    client.headers["Authorization"] = f"Bearer {key}"
    return client


def _check(usage: dict[str, Any], calls: int, tokens: tuple[int, int]) -> None:
    assert set(usage) == USAGE_FIELDS
    assert (usage["model"], usage["calls"], usage["prompt_tokens"], usage["completion_tokens"]) == (
        MODEL,
        calls,
        *tokens,
    )
    assert usage["cost"] == pytest.approx(_cost(*tokens))


def test_an_eda_run_shows_its_usage_after_each_call(service: AnalysisService) -> None:
    replies = [tool_reply(answer) for answer in (PLAN, WRONG, CODE, FINDING, REPORT)]
    model = scripted(*(counted(reply, *tokens) for reply, tokens in zip(replies, EDA_TOKENS, strict=True)))
    brain = LLMEdaBrain(model, name=MODEL)
    settings = service.settings.model_copy(update={"llm_prices": PRICES})
    eda = EdaService(settings, store=service.store, brains=lambda spec: brain)
    with eda, _client(service, eda=eda) as client:
        files = {"file": ("売上.csv", SALES.encode("cp932"), "text/csv")}
        run = client.post("/api/v1/eda/runs", files=files, data={"model": MODEL}).json()
        _check(run["usage"], 1, EDA_TOKENS[0])
        url = f"/api/v1/eda/runs/{run['run_id']}"
        _check(client.post(f"{url}/resume", json={"action": "approve"}).json()["usage"], 4, _sum(EDA_TOKENS[:4]))
        client.post(f"{url}/resume", json={"action": "approve"})
        shown = client.get(url).json()
        listed = client.get("/api/v1/eda/runs").json()
    assert shown["status"] == "completed"
    _check(shown["usage"], 5, _sum(EDA_TOKENS))
    assert listed[0]["usage"] == shown["usage"]


def test_a_knowledge_conversation_shows_each_answers_usage(service: AnalysisService) -> None:
    brain = LLMKnowledgeBrain(scripted(*knowledge_replies()), name=MODEL)
    settings = service.settings.model_copy(update={"llm_prices": PRICES})
    knowledge = KnowledgeService(
        settings, knowledge_base=FakeKnowledgeBase(), store=service.store, brains={MODEL: brain}
    )
    with knowledge, _client(service, knowledge=knowledge) as client:
        conversation = client.post("/api/v1/knowledge/conversations", json={"collections": ["manuals"], "model": MODEL})
        url = f"/api/v1/knowledge/conversations/{conversation.json()['id']}"
        answer = client.post(f"{url}/messages", json={"question": QUESTION}).json()
        shown = client.get(url).json()
    tokens = _sum(KNOWLEDGE_TOKENS)
    _check(answer["usage"], 3, tokens)
    assert shown["turns"][0]["answer"]["usage"] == answer["usage"]


@pytest.fixture
def offline_runs(service: AnalysisService) -> Iterator[InvestigationRuns]:
    with InvestigationRuns(service.settings, investigator=LightInvestigator(service.settings)) as runs:
        yield runs


def test_an_investigation_shows_its_usage_once_it_has_ended(
    service: AnalysisService, offline_runs: InvestigationRuns
) -> None:
    with _client(service, investigations=offline_runs) as client:
        started = client.post(
            "/api/v1/investigations", files={"file": ("case.zip", sample_case_zip(), "application/zip")}
        ).json()
        assert started["usage"] is None  # not known while it is queued or running
        offline_runs.wait(started["investigation_id"])
        shown = client.get(f"/api/v1/investigations/{started['investigation_id']}").json()
        result = client.get(f"/api/v1/investigations/{started['investigation_id']}/result").json()
    assert shown["status"] == "completed"
    offline = {"model": "offline", "calls": 0, "prompt_tokens": 0, "completion_tokens": 0, "seconds": 0.0}
    assert shown["usage"] == offline | {"cost": None}
    assert result["usage"] == shown["usage"]

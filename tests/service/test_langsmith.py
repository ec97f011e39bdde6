"""LangSmith traces a turn when the LANGSMITH_* variables are set, tagged with the session and turn.

Nothing of ours switches tracing on: LangChain adds its tracer itself from the environment. A local
stand-in for the LangSmith API receives the runs; the service flushes them before the turn returns.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, cast

import langsmith.utils
import pytest
from langsmith import run_trees

from bunseki.brain.analyst.llm import LLMAnalystBrain
from bunseki.samples import SALES_CSV
from tests.conftest import ServiceFactory
from tests.fakes.chat import scripted
from tests.fakes.langsmith_server import FakeLangSmith, fake_langsmith
from tests.fakes.usage import MODEL, QUESTION, turn_replies


def _forget_langsmith_settings() -> None:
    """LangSmith caches what it read from the environment, and its client: read afresh."""
    cast(Any, langsmith.utils.get_env_var).cache_clear()  # an lru_cache behind overloads
    langsmith.utils.get_tracer_project.cache_clear()


@contextmanager
def langsmith_environment(monkeypatch: pytest.MonkeyPatch, server: FakeLangSmith, *, tracing: bool) -> Iterator[None]:
    """The LANGSMITH_* variables pointing at ``server``; LANGSMITH_TRACING only when ``tracing``."""
    variables = {"LANGSMITH_API_KEY": "lsv2_test_key", "LANGSMITH_ENDPOINT": server.url, "LANGSMITH_PROJECT": "tests"}
    if tracing:
        variables["LANGSMITH_TRACING"] = "true"
    for name, value in variables.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setattr(run_trees, "_CLIENT", None)
    _forget_langsmith_settings()
    try:
        yield
    finally:
        monkeypatch.undo()  # the variables go before the caches are cleared, so no later test traces
        _forget_langsmith_settings()


@pytest.fixture
def langsmith_server(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeLangSmith]:
    with fake_langsmith() as server, langsmith_environment(monkeypatch, server, tracing=True):
        yield server


def test_a_turn_is_traced_to_langsmith_with_its_session_and_turn(
    langsmith_server: FakeLangSmith, open_service: ServiceFactory
) -> None:
    service = open_service(brain=LLMAnalystBrain(scripted(*turn_replies()), name=MODEL))
    session = service.create_session(SALES_CSV, model=MODEL)
    result = service.run_turn(session.id, QUESTION)
    assert result.status == "finalized" and result.turn_id is not None
    assert langsmith_server.uploads(), "the tracer sent the turn's runs before run_turn returned"
    sent = langsmith_server.runs_text()
    assert session.id in sent and result.turn_id in sent  # our metadata, on the runs
    assert "bunseki turn" in sent  # the turn's run, by name
    assert "ReasonOutput" in sent  # the model calls inside it
    # the local record is kept all the same
    [turn] = service.turns(session.id)
    assert turn.usage is not None and turn.usage.calls == len(turn_replies())


def test_without_tracing_on_nothing_is_sent(monkeypatch: pytest.MonkeyPatch, open_service: ServiceFactory) -> None:
    with fake_langsmith() as server, langsmith_environment(monkeypatch, server, tracing=False):
        service = open_service(brain=LLMAnalystBrain(scripted(*turn_replies()), name=MODEL))
        session = service.create_session(SALES_CSV, model=MODEL)
        assert service.run_turn(session.id, QUESTION).status == "finalized"
    assert server.received == []  # a key and an endpoint alone do not switch tracing on

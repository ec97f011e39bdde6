"""A turn's deadline: no model call starts after it, and calls near it are shortened to fit."""

from __future__ import annotations

import time
from collections.abc import Iterator
from http import HTTPStatus

import pytest
from langchain_openai import ChatOpenAI

from bunseki.api.problems import status_of
from bunseki.brain.analyst.contract import AnalystView
from bunseki.brain.analyst.llm import LLMAnalystBrain
from bunseki.deadline import check_deadline, remaining_s, turn_deadline
from bunseki.errors import ModelRequestError, ModelTimeoutError
from bunseki.llm import create_chat_model, endpoint_of, within_deadline
from bunseki.settings import Settings
from tests.fakes.openai_server import FakeOpenAIServer, fake_openai_server


@pytest.fixture
def server() -> Iterator[FakeOpenAIServer]:
    with fake_openai_server() as running:
        yield running


def test_outside_a_turn_there_is_no_deadline() -> None:
    assert remaining_s() is None
    check_deadline()


def test_a_passed_deadline_names_the_setting() -> None:
    with turn_deadline(0), pytest.raises(ModelTimeoutError, match="BUNSEKI_TURN_DEADLINE_S"):
        check_deadline()
    assert remaining_s() is None  # the block restored the outer (absent) deadline


def test_a_call_near_the_deadline_gets_a_shorter_timeout_and_fewer_retries() -> None:
    settings = Settings(llm_base_url="http://127.0.0.1:9/v1", llm_timeout_s=30, llm_max_retries=2)
    model = create_chat_model("openai:local", settings)
    with turn_deadline(1000):
        assert within_deadline(model) is model  # 3 attempts of 30 s fit
    with turn_deadline(10):
        short = within_deadline(model)
    assert isinstance(short, ChatOpenAI)
    assert short.request_timeout is not None and 0 < float(str(short.request_timeout)) <= 10
    assert short.max_retries == 0
    endpoint = endpoint_of(short)
    assert endpoint is not None and endpoint.timeout_s <= 10


def test_a_slow_server_cannot_hold_a_turn_past_its_deadline(server: FakeOpenAIServer) -> None:
    for _ in range(3):
        server.reply_content("{}", delay_s=20)
    settings = Settings(llm_base_url=server.url, llm_timeout_s=60, llm_max_retries=2)
    brain = LLMAnalystBrain(create_chat_model("openai:local", settings), name="openai:local")
    began = time.monotonic()
    with turn_deadline(0.5), pytest.raises(ModelTimeoutError, match=r"time limit of 0\.5 s"):
        brain.decide(AnalystView(question="売上は？"))
    assert time.monotonic() - began < 10  # generous: without the deadline this takes 3 × 20 s


def test_the_api_maps_timeouts_to_504_and_other_model_failures_to_502() -> None:
    assert status_of(ModelTimeoutError("slow")) == HTTPStatus.GATEWAY_TIMEOUT
    assert status_of(ModelRequestError("down")) == HTTPStatus.BAD_GATEWAY

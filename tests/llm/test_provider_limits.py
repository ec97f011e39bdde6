"""Request timeouts and retries per provider, and Ollama's retries against a local fake Ollama server."""

from __future__ import annotations

import json
import threading
from collections import deque
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import httpx
import pytest
from langchain_anthropic import ChatAnthropic
from langchain_core.language_models import BaseChatModel
from langchain_ollama import ChatOllama
from langchain_openai import ChatOpenAI
from pydantic import SecretStr, ValidationError

from bunseki.deadline import turn_deadline
from bunseki.errors import ModelRequestError
from bunseki.http_retry import RetryingTransport, backoff, retry_after
from bunseki.llm import create_chat_model, endpoint_of, translate_model_errors, within_deadline
from bunseki.settings import Settings


def ollama_transport(model: BaseChatModel) -> RetryingTransport:
    assert isinstance(model, ChatOllama)
    transport = model._client._client._transport  # the httpx client inside ollama.Client
    assert isinstance(transport, RetryingTransport)
    return transport


def test_the_maps_are_read_from_the_environment_as_json(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BUNSEKI_LLM_TIMEOUT_S_BY_PROVIDER", '{"ollama": 300}')
    monkeypatch.setenv("BUNSEKI_LLM_MAX_RETRIES_BY_PROVIDER", '{"ollama": 4, "openai": 0}')
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    assert settings.llm_timeout_s_by_provider == {"ollama": 300.0}
    assert settings.llm_max_retries_by_provider == {"ollama": 4, "openai": 0}


@pytest.mark.parametrize(
    "value",
    ['{"olama": 3}', '{"ollama": -1}', '{"ollama": 11}', "[3]"],
    ids=["unknown provider", "negative", "too many", "not a map"],
)
def test_a_bad_map_is_refused(monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    monkeypatch.setenv("BUNSEKI_LLM_MAX_RETRIES_BY_PROVIDER", value)
    with pytest.raises(ValidationError, match="llm_max_retries_by_provider"):
        Settings(_env_file=None)  # type: ignore[call-arg]


def test_each_provider_gets_its_own_limits_and_the_rest_the_global_ones() -> None:
    settings = Settings(
        llm_timeout_s=40,
        llm_max_retries=2,
        llm_timeout_s_by_provider={"ollama": 300},
        llm_max_retries_by_provider={"ollama": 5, "anthropic": 0},
        anthropic_api_key=SecretStr("sk-ant-test"),
        llm_base_url="http://127.0.0.1:9/v1",
    )
    ollama_model = create_chat_model("ollama:llama3.1", settings)
    openai_model = create_chat_model("openai:local", settings)
    anthropic_model = create_chat_model("anthropic:claude-sonnet-4-5", settings)
    assert isinstance(ollama_model, ChatOllama) and isinstance(openai_model, ChatOpenAI)
    assert isinstance(anthropic_model, ChatAnthropic)
    assert ollama_transport(ollama_model).retries == 5
    assert ollama_model._client._client.timeout.read == 300
    assert (openai_model.max_retries, openai_model.request_timeout) == (2, 40)
    assert (anthropic_model.max_retries, anthropic_model.default_request_timeout) == (0, 40)
    endpoints = [endpoint_of(model) for model in (ollama_model, openai_model, anthropic_model)]
    assert [(e.timeout_s, e.max_retries) if e else None for e in endpoints] == [(300, 5), (40, 2), (40, 0)]


def test_a_model_shortened_for_the_deadline_keeps_the_values_it_was_given() -> None:
    settings = Settings(llm_timeout_s_by_provider={"ollama": 100}, llm_max_retries_by_provider={"ollama": 3})
    model = create_chat_model("ollama:llama3.1", settings)
    with turn_deadline(25):
        shortened = within_deadline(model)
    assert isinstance(shortened, ChatOllama)
    endpoint = endpoint_of(shortened)
    assert endpoint is not None and endpoint.timeout_s <= 25 and endpoint.max_retries == 0
    assert ollama_transport(shortened).retries == 0


def test_retry_after_reads_seconds_and_dates() -> None:
    assert retry_after("2") == 2.0 and retry_after("0") == 0.0
    assert retry_after("Wed, 21 Oct 2015 07:28:00 GMT") == 0.0  # a date in the past: no wait
    assert retry_after("soon") is None and retry_after(None) is None
    assert [backoff(n) for n in range(3)] == [0.5, 1.0, 2.0]


class FakeOllama:
    """``POST /api/chat`` answering scripted statuses, then streamed NDJSON as Ollama does."""

    def __init__(self) -> None:
        self.statuses: deque[int] = deque()
        self.requests: list[dict[str, Any]] = []
        self._http = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._thread = threading.Thread(target=self._http.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True)

    @property
    def url(self) -> str:
        host, port = self._http.server_address[:2]
        return f"http://{host!s}:{port}"

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", "0"))) or b"{}")
                fake.requests.append(body)
                status = fake.statuses.popleft() if fake.statuses else 200
                if status != 200:
                    data = json.dumps({"error": "model is loading"}).encode()
                    self.send_response(status)
                    self.send_header("Retry-After", "0")
                else:
                    said = {"model": body["model"], "message": {"role": "assistant", "content": "こんにちは"}}
                    end = {"model": body["model"], "message": {"role": "assistant", "content": ""}}
                    lines = [
                        {**said, "done": False},
                        {**end, "done": True, "done_reason": "stop", "prompt_eval_count": 3, "eval_count": 1},
                    ]
                    data = b"".join(json.dumps(line, ensure_ascii=False).encode() + b"\n" for line in lines)
                    self.send_response(200)
                    self.send_header("Content-Type", "application/x-ndjson")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, format: str, *args: Any) -> None:
                """Requests are recorded in ``fake.requests``."""

        return Handler

    def __enter__(self) -> FakeOllama:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._http.shutdown()
        self._http.server_close()
        self._thread.join(timeout=5)


@pytest.fixture
def fake_ollama() -> Iterator[FakeOllama]:
    with FakeOllama() as server:
        yield server


def test_ollama_retries_a_503_and_answers(fake_ollama: FakeOllama) -> None:
    fake_ollama.statuses.extend([503])
    model = create_chat_model("ollama:llama3.1", Settings(ollama_host=fake_ollama.url, llm_max_retries=2))
    with translate_model_errors(endpoint_of(model)):
        reply = model.invoke("やあ")
    assert reply.content == "こんにちは"
    assert len(fake_ollama.requests) == 2 and ollama_transport(model).waits == [0.0]  # Retry-After: 0


def test_ollama_gives_up_after_its_retries_with_a_plain_message(fake_ollama: FakeOllama) -> None:
    fake_ollama.statuses.extend([503, 503, 503])
    settings = Settings(ollama_host=fake_ollama.url, llm_max_retries=5, llm_max_retries_by_provider={"ollama": 1})
    model = create_chat_model("ollama:llama3.1", settings)
    with pytest.raises(ModelRequestError, match=r"failed \(503\)"), translate_model_errors(endpoint_of(model)):
        model.invoke("やあ")
    assert len(fake_ollama.requests) == 2 and list(fake_ollama.statuses) == [503]


class Refusing(httpx.BaseTransport):
    """A transport whose connections fail ``failures`` times, then answer 200."""

    def __init__(self, failures: int) -> None:
        self.failures = failures
        self.calls = 0

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        self.calls += 1
        if self.calls <= self.failures:
            raise httpx.ConnectError("connection refused", request=request)
        return httpx.Response(200, text="ok")


def test_failed_connections_are_retried_with_backoff_then_raised() -> None:
    waited: list[float] = []
    recovers = RetryingTransport(2, inner=Refusing(2), sleep=waited.append)
    with httpx.Client(transport=recovers) as client:
        assert client.get("http://127.0.0.1:9/").text == "ok"
    assert waited == [0.5, 1.0]
    never = RetryingTransport(1, inner=Refusing(5), sleep=waited.append)
    with httpx.Client(transport=never) as client, pytest.raises(httpx.ConnectError):
        client.get("http://127.0.0.1:9/")
    assert never.inner.calls == 2  # type: ignore[attr-defined]


def test_no_wait_outlasts_the_turn() -> None:
    refusing = Refusing(1)
    transport = RetryingTransport(3, inner=refusing, sleep=lambda seconds: None)
    with turn_deadline(0.2), httpx.Client(transport=transport) as client, pytest.raises(httpx.ConnectError):
        client.get("http://127.0.0.1:9/")  # the first backoff (0.5 s) is longer than the turn has left
    assert refusing.calls == 1 and transport.waits == []

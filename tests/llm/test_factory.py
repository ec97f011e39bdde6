"""The provider factory: spec parsing, model construction, the kill switch and error translation."""

from __future__ import annotations

import asyncio
import re
import sys
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import ollama
import pytest
from google.genai import errors as genai_errors
from langchain_anthropic import ChatAnthropic
from langchain_core.language_models import BaseChatModel
from langchain_google_genai import ChatGoogleGenerativeAI
from langchain_ollama import ChatOllama
from langchain_openai import AzureChatOpenAI, ChatOpenAI
from pydantic import BaseModel, SecretStr

from bunseki import llm
from bunseki.brain.analyst.llm import LLMAnalystBrain
from bunseki.brain.factory import create_analyst_brain
from bunseki.errors import ConfigurationError, ModelRequestError
from bunseki.llm import (
    Endpoint,
    ModelSpec,
    RemoteRequestGuard,
    available_models,
    create_chat_model,
    endpoint_of,
    is_loopback_url,
    parse_model_spec,
    translate_model_errors,
)
from bunseki.settings import Settings
from tests.fakes.openai_server import FakeOpenAIServer, fake_openai_server

# What provider SDKs and Settings read from the environment; a developer's shell may set them.
PROVIDER_VARIABLES = (
    "OPENAI_API_KEY",
    "OPENAI_BASE_URL",
    "OPENAI_API_BASE",
    "OPENAI_API_VERSION",
    "ANTHROPIC_API_KEY",
    "GOOGLE_API_KEY",
    "GEMINI_API_KEY",
    "AZURE_OPENAI_API_KEY",
    "AZURE_OPENAI_ENDPOINT",
    "OLLAMA_HOST",
    "LANGSMITH_GATEWAY",
)


@pytest.fixture(autouse=True)
def provider_free_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in PROVIDER_VARIABLES:
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def server() -> Iterator[FakeOpenAIServer]:
    with fake_openai_server() as running:
        yield running


ALL_KEYS = Settings(
    openai_api_key=SecretStr("sk-openai"),
    anthropic_api_key=SecretStr("sk-anthropic"),
    google_api_key=SecretStr("google-key"),
    azure_openai_api_key=SecretStr("azure-key"),
    azure_openai_endpoint="https://example.openai.azure.com",
    llm_timeout_s=30,
    llm_temperature=0.2,
)


class Answer(BaseModel):
    value: int


def secret(value: object) -> str:
    assert isinstance(value, SecretStr)
    return value.get_secret_value()


# --- spec parsing ---


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("openai:gpt-4o-mini", ModelSpec("openai", "gpt-4o-mini")),
        ("azure_openai:my-deployment", ModelSpec("azure_openai", "my-deployment")),
        ("anthropic:claude-sonnet-4-5", ModelSpec("anthropic", "claude-sonnet-4-5")),
        ("google_genai:gemini-2.5-flash", ModelSpec("google_genai", "gemini-2.5-flash")),
        ("ollama:llama3.1:8b", ModelSpec("ollama", "llama3.1:8b")),
        (" offline ", ModelSpec("offline", "")),
    ],
)
def test_parse_accepts_provider_model_and_offline(text: str, expected: ModelSpec) -> None:
    spec = parse_model_spec(text)
    assert spec == expected
    assert parse_model_spec(str(spec)) == spec


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("gpt-4o-mini", "has no provider"),
        ("vertexai:gemini-2.5-flash", "unknown model provider 'vertexai'"),
        ("openai:", "names no model"),
        ("openai:   ", "names no model"),
        ("", "has no provider"),
    ],
)
def test_parse_rejects_bad_specs_and_lists_the_accepted_forms(text: str, problem: str) -> None:
    with pytest.raises(ConfigurationError) as caught:
        parse_model_spec(text)
    message = str(caught.value)
    assert problem in message
    for example in ("openai:gpt-4o-mini", "anthropic:claude-sonnet-4-5", "ollama:llama3.1", "'offline'"):
        assert example in message


# --- construction: the right class with the right arguments, without any network ---


def test_openai_cloud() -> None:
    model = create_chat_model("openai:gpt-4o-mini", ALL_KEYS)
    assert isinstance(model, ChatOpenAI)
    assert model.model_name == "gpt-4o-mini"
    assert secret(model.openai_api_key) == "sk-openai"
    assert model.openai_api_base is None
    assert (model.temperature, model.request_timeout, model.max_retries) == (0.2, 30, ALL_KEYS.llm_max_retries)
    assert endpoint_of(model) == Endpoint(
        "openai", "gpt-4o-mini", None, "OPENAI_API_KEY", 30, "json_schema", ALL_KEYS.llm_max_retries
    )
    assert model.max_tokens == ALL_KEYS.llm_max_tokens


def test_openai_compatible_server_needs_no_key() -> None:
    settings = Settings(llm_base_url="http://127.0.0.1:8765/v1")
    model = create_chat_model("openai:local-model", settings)
    assert isinstance(model, ChatOpenAI)
    assert model.openai_api_base == "http://127.0.0.1:8765/v1"
    assert secret(model.openai_api_key) == "not-needed"
    assert model.use_responses_api is False
    endpoint = endpoint_of(model)
    assert endpoint is not None and endpoint.is_loopback


def test_openai_compatible_server_uses_a_key_when_given() -> None:
    settings = Settings(llm_base_url="https://llm.example.com/v1", openai_api_key=SecretStr("sk-gateway"))
    model = create_chat_model("openai:served-model", settings)
    assert isinstance(model, ChatOpenAI)
    assert secret(model.openai_api_key) == "sk-gateway"


def test_azure_openai() -> None:
    model = create_chat_model("azure_openai:prod-gpt4o", ALL_KEYS)
    assert isinstance(model, AzureChatOpenAI)
    assert model.deployment_name == "prod-gpt4o"
    assert model.azure_endpoint == "https://example.openai.azure.com"
    assert model.openai_api_version == ALL_KEYS.azure_openai_api_version
    assert secret(model.openai_api_key) == "azure-key"
    assert (model.temperature, model.request_timeout, model.max_retries) == (0.2, 30, ALL_KEYS.llm_max_retries)


def test_anthropic() -> None:
    model = create_chat_model("anthropic:claude-sonnet-4-5", ALL_KEYS)
    assert isinstance(model, ChatAnthropic)
    assert model.model == "claude-sonnet-4-5"
    assert model.anthropic_api_key.get_secret_value() == "sk-anthropic"
    assert (model.temperature, model.default_request_timeout, model.max_retries) == (0.2, 30, ALL_KEYS.llm_max_retries)


def test_google_genai() -> None:
    model = create_chat_model("google_genai:gemini-2.5-flash", ALL_KEYS)
    assert isinstance(model, ChatGoogleGenerativeAI)
    assert model.model == "gemini-2.5-flash"
    assert secret(model.google_api_key) == "google-key"
    assert (model.temperature, model.timeout, model.max_retries) == (0.2, 30, ALL_KEYS.llm_max_retries)


@pytest.mark.parametrize(
    ("host", "expected"), [(None, llm.DEFAULT_OLLAMA_HOST), ("http://gpu-box:11434", "http://gpu-box:11434")]
)
def test_ollama_always_gets_an_explicit_host(host: str | None, expected: str) -> None:
    model = create_chat_model("ollama:llama3.1", Settings(ollama_host=host, llm_timeout_s=30))
    assert isinstance(model, ChatOllama)
    assert (model.model, model.base_url) == ("llama3.1", expected)
    assert model.client_kwargs == {"timeout": 30}


def test_keys_come_through_settings_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-from-env")
    model = create_chat_model("anthropic:claude-sonnet-4-5", Settings())
    assert isinstance(model, ChatAnthropic)
    assert model.anthropic_api_key.get_secret_value() == "sk-from-env"


@pytest.mark.parametrize(
    ("spec", "variable"),
    [
        ("openai:gpt-4o-mini", "OPENAI_API_KEY"),
        ("anthropic:claude-sonnet-4-5", "ANTHROPIC_API_KEY"),
        ("google_genai:gemini-2.5-flash", "GOOGLE_API_KEY"),
        ("azure_openai:prod-gpt4o", "AZURE_OPENAI_API_KEY"),
    ],
)
def test_a_missing_key_names_the_variable_to_set(spec: str, variable: str) -> None:
    with pytest.raises(ConfigurationError, match=variable):
        create_chat_model(spec, Settings())


def test_azure_needs_its_endpoint_too() -> None:
    with pytest.raises(ConfigurationError, match="AZURE_OPENAI_ENDPOINT"):
        create_chat_model("azure_openai:prod-gpt4o", Settings(azure_openai_api_key=SecretStr("azure-key")))


def test_offline_is_not_a_chat_model() -> None:
    with pytest.raises(ConfigurationError, match="create_analyst_brain"):
        create_chat_model("offline", ALL_KEYS)


def test_a_missing_provider_package_names_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "langchain_anthropic", None)  # makes the import fail
    with pytest.raises(ConfigurationError, match="pip install langchain-anthropic"):
        create_chat_model("anthropic:claude-sonnet-4-5", ALL_KEYS)


# --- structured output and token caps, chosen here and nowhere else ---


def structured_output_of(model: BaseChatModel) -> str | None:
    """How the brains ask ``model`` for structured output: the factory's choice; None (the
    integration's default) for models built elsewhere, such as the fakes."""
    endpoint = endpoint_of(model)
    return endpoint.structured_output if endpoint else None


@pytest.mark.parametrize(
    ("spec", "method"),
    [
        ("openai:gpt-4o-mini", "json_schema"),
        ("azure_openai:d", "json_schema"),
        ("anthropic:c", "function_calling"),
        ("google_genai:g", "json_schema"),
        ("ollama:l", "json_schema"),
    ],
)
def test_each_provider_has_its_structured_output_method(spec: str, method: str) -> None:
    assert structured_output_of(create_chat_model(spec, ALL_KEYS)) == method
    forced = ALL_KEYS.model_copy(update={"llm_structured_output": "json_mode"})
    assert structured_output_of(create_chat_model(spec, forced)) == "json_mode"


def test_models_built_elsewhere_keep_their_integrations_default() -> None:
    from tests.fakes.chat import scripted

    assert structured_output_of(scripted()) is None


def test_every_provider_gets_the_token_cap_and_retries() -> None:
    settings = ALL_KEYS.model_copy(update={"llm_max_tokens": 321, "llm_max_retries": 4})
    anthropic = create_chat_model("anthropic:c", settings)
    google = create_chat_model("google_genai:g", settings)
    ollama_model = create_chat_model("ollama:l", settings)
    assert isinstance(anthropic, ChatAnthropic) and (anthropic.max_tokens, anthropic.max_retries) == (321, 4)
    assert isinstance(google, ChatGoogleGenerativeAI) and (google.max_output_tokens, google.max_retries) == (321, 4)
    assert isinstance(ollama_model, ChatOllama) and ollama_model.num_predict == 321


def test_a_compatible_server_gets_the_cap_under_both_names(server: FakeOpenAIServer) -> None:
    """langchain-openai sends max_completion_tokens; llama-cpp-python's server only reads max_tokens."""
    server.reply_content("pong")
    model = create_chat_model("openai:local", Settings(llm_base_url=server.url, llm_max_tokens=64))
    model.invoke("hi")
    (request,) = server.requests
    assert (request["max_tokens"], request["max_completion_tokens"]) == (64, 64)


def test_the_factory_does_not_know_brains() -> None:
    """One direction: bunseki.brain.factory uses bunseki.llm, never the reverse."""
    import ast
    import inspect

    tree = ast.parse(inspect.getsource(llm))
    imported = [node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)]
    imported += [alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names]
    assert not [name for name in imported if name.startswith("bunseki.brain")]


# --- brains ---


def test_create_brain_wraps_the_chat_model() -> None:
    brain = create_analyst_brain("openai:gpt-4o-mini", ALL_KEYS)
    assert isinstance(brain, LLMAnalystBrain)
    assert brain.name == "openai:gpt-4o-mini"


def test_create_brain_defaults_to_the_configured_model() -> None:
    brain = create_analyst_brain(
        None, Settings(model="anthropic:claude-sonnet-4-5", anthropic_api_key=SecretStr("sk-anthropic"))
    )
    assert brain.name == "anthropic:claude-sonnet-4-5"


def test_create_brain_offline_needs_no_key() -> None:
    from bunseki.brain.analyst.offline import OfflineAnalystBrain

    assert isinstance(create_analyst_brain("offline", Settings()), OfflineAnalystBrain)


def test_create_brain_reports_configuration_problems() -> None:
    with pytest.raises(ConfigurationError, match="OPENAI_API_KEY"):
        create_analyst_brain(None, Settings(model="openai:gpt-4o-mini"))


# --- available models ---


def test_only_offline_without_configuration() -> None:
    assert available_models(Settings()) == ["offline"]


def test_configured_providers_are_offered_with_default_models() -> None:
    models = available_models(ALL_KEYS.model_copy(update={"ollama_host": "http://127.0.0.1:11434"}))
    assert models == [
        "offline",
        "openai:gpt-4o-mini",
        "anthropic:claude-sonnet-4-5",
        "google_genai:gemini-2.5-flash",
        "ollama:llama3.1",
    ]


def test_the_configured_model_comes_first_and_once() -> None:
    settings = Settings(
        model="azure_openai:prod-gpt4o", anthropic_api_key=SecretStr("k"), azure_openai_api_key=SecretStr("k")
    )
    assert available_models(settings) == ["offline", "azure_openai:prod-gpt4o", "anthropic:claude-sonnet-4-5"]
    settings = Settings(model="anthropic:claude-sonnet-4-5", anthropic_api_key=SecretStr("k"))
    assert available_models(settings) == ["offline", "anthropic:claude-sonnet-4-5"]


def test_a_compatible_server_replaces_the_openai_default() -> None:
    settings = Settings(model="openai:qwen2.5", llm_base_url="http://127.0.0.1:8000/v1", openai_api_key=SecretStr("k"))
    assert available_models(settings) == ["offline", "openai:qwen2.5"]


# --- the kill switch ---


@pytest.mark.parametrize(
    ("url", "loopback"),
    [
        ("http://127.0.0.1:8000/v1", True),
        ("http://127.0.0.2:8000", True),
        ("http://localhost:11434", True),
        ("http://[::1]:8000/v1", True),
        ("127.0.0.1:11434", True),
        ("https://api.openai.com/v1", False),
        ("http://localhost.example.com", False),
        ("http://192.168.1.10:8000/v1", False),
        ("http://0.0.0.0:8000", False),
    ],
)
def test_loopback_urls(url: str, loopback: bool) -> None:
    assert is_loopback_url(url) is loopback


def test_every_built_model_carries_the_guard() -> None:
    for spec in ("openai:gpt-4o-mini", "azure_openai:d", "anthropic:c", "google_genai:g", "ollama:l"):
        model = create_chat_model(spec, ALL_KEYS)
        assert isinstance(model.callbacks, list)
        assert [type(handler) for handler in model.callbacks] == [RemoteRequestGuard], spec


CALLS: dict[str, Callable[[BaseChatModel], Any]] = {
    "invoke": lambda model: model.invoke("hi"),
    "stream": lambda model: list(model.stream("hi")),
    "batch": lambda model: model.batch(["hi"]),
    "ainvoke": lambda model: asyncio.run(model.ainvoke("hi")),
    "structured": lambda model: model.with_structured_output(Answer).invoke("hi"),
}


@pytest.mark.parametrize("call", CALLS.values(), ids=CALLS.keys())
def test_a_remote_request_is_refused_before_it_is_sent(
    server: FakeOpenAIServer, monkeypatch: pytest.MonkeyPatch, call: Callable[[BaseChatModel], Any]
) -> None:
    # The openai SDK follows OPENAI_BASE_URL, so a request that escaped would land here.
    monkeypatch.setenv("OPENAI_BASE_URL", server.url)
    model = create_chat_model("openai:gpt-4o-mini", Settings(openai_api_key=SecretStr("sk-test")))
    with pytest.raises(RuntimeError, match="ALLOW_REMOTE_REQUESTS is False"):
        call(model)
    assert server.requests == []


def test_the_same_request_goes_out_when_allowed(server: FakeOpenAIServer, monkeypatch: pytest.MonkeyPatch) -> None:
    """The control for the test above: its redirect works, so its empty server log means something."""
    monkeypatch.setenv("OPENAI_BASE_URL", server.url)
    monkeypatch.setattr(llm, "ALLOW_REMOTE_REQUESTS", True)
    server.reply_content("pong")
    model = create_chat_model("openai:gpt-4o-mini", Settings(openai_api_key=SecretStr("sk-test")))
    assert model.invoke("hi").content == "pong"
    assert [request["model"] for request in server.requests] == ["gpt-4o-mini"]


@pytest.mark.parametrize("spec", ["anthropic:claude-sonnet-4-5", "google_genai:gemini-2.5-flash", "azure_openai:d"])
def test_cloud_providers_are_refused_too(spec: str) -> None:
    with pytest.raises(RuntimeError, match="ALLOW_REMOTE_REQUESTS is False"):
        create_chat_model(spec, ALL_KEYS).invoke("hi")


def test_a_remote_ollama_host_is_refused() -> None:
    model = create_chat_model("ollama:llama3.1", Settings(ollama_host="http://192.0.2.1:11434"))
    with pytest.raises(RuntimeError, match=re.escape("http://192.0.2.1:11434")):
        model.invoke("hi")


def test_a_loopback_server_is_allowed(server: FakeOpenAIServer) -> None:
    server.reply_tool_call("Answer", {"value": 42})
    model = create_chat_model("openai:test-model", Settings(llm_base_url=server.url))
    answer = model.with_structured_output(Answer, method="function_calling").invoke("the answer?")
    assert answer == Answer(value=42)
    (request,) = server.requests
    assert request["tools"][0]["function"]["name"] == "Answer"
    assert server.headers[0]["authorization"] == "Bearer not-needed"


# --- error translation ---

REQUEST = httpx.Request("POST", "http://127.0.0.1:8000/v1/chat/completions")
LOCAL = Endpoint("openai", "test-model", "http://127.0.0.1:8000/v1", "OPENAI_API_KEY", 7.5)


def _status_error(status: int) -> httpx.HTTPStatusError:
    return httpx.HTTPStatusError("failed", request=REQUEST, response=httpx.Response(status, request=REQUEST))


def _wrapped_google_error() -> Exception:
    try:
        raise genai_errors.ClientError(403, {"error": {"message": "denied", "status": "PERMISSION_DENIED"}})
    except genai_errors.ClientError as exc:
        try:
            raise ValueError("Error calling model 'gemini-2.5-flash'") from exc  # as integrations wrap it
        except ValueError as wrapped:
            return wrapped


@pytest.mark.parametrize(
    ("error", "message"),
    [
        (_status_error(401), "authentication failed: check OPENAI_API_KEY"),
        (_status_error(403), "permission denied: check that OPENAI_API_KEY"),
        (_status_error(404), "does not know the model 'test-model'"),
        (_status_error(429), "rate limit or quota exceeded"),
        (_status_error(503), "http://127.0.0.1:8000/v1 failed (503)"),
        (_status_error(400), "rejected the request (400)"),
        (httpx.ReadTimeout("slow", request=REQUEST), "did not answer within 7.5 s"),
        (TimeoutError(), "did not answer within 7.5 s"),
        (httpx.ConnectError("refused", request=REQUEST), "could not connect to http://127.0.0.1:8000/v1"),
        (ConnectionError("Failed to connect to Ollama"), "could not connect"),
        (ollama.ResponseError("model 'x' not found", status_code=404), "does not know the model"),
        (_wrapped_google_error(), "permission denied"),
    ],
)
def test_provider_failures_become_model_request_errors(error: Exception, message: str) -> None:
    with pytest.raises(ModelRequestError, match=re.escape(message)) as caught, translate_model_errors(LOCAL):
        raise error
    assert caught.value.__cause__ is error


def test_without_an_endpoint_messages_stay_generic() -> None:
    with (
        pytest.raises(ModelRequestError, match="authentication failed: check the API key"),
        translate_model_errors(),
    ):
        raise _status_error(401)


@pytest.mark.parametrize("error", [ValueError("a bug"), RuntimeError("refused"), KeyError("x")])
def test_other_exceptions_pass_through(error: Exception) -> None:
    with pytest.raises(type(error)) as caught, translate_model_errors(LOCAL):
        raise error
    assert caught.value is error

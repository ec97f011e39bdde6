"""Chat models from a ``provider:model`` spec: the one place that switches on the provider.

`create_chat_model` builds a LangChain chat model with explicit arguments from `Settings` (keys,
hosts, timeouts, retries, the per-answer token cap: nothing is left for a provider SDK to find in
the environment), and records on it how that provider is asked for structured output. Brains take
the model (`bunseki.brain.factory` puts the two together); this module knows nothing of brains.
Every model built here carries a `RemoteRequestGuard`: while `ALLOW_REMOTE_REQUESTS` is False (the
test suite sets it so), a request to anything but loopback fails before it is sent.
`translate_model_errors` turns provider SDK and network exceptions into `ModelRequestError` with a
message that says what to do.
"""

from __future__ import annotations

import ipaddress
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Literal
from urllib.parse import urlsplit

from langchain_core.callbacks import BaseCallbackHandler
from pydantic import SecretStr

from bunseki.deadline import check_deadline, remaining_s
from bunseki.errors import BunsekiError, ConfigurationError, ModelOutputError, ModelRequestError, ModelTimeoutError
from bunseki.http_retry import RetryingTransport

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel

    from bunseki.settings import Settings

ALLOW_REMOTE_REQUESTS: bool = True
"""Set to False (tests do) to make every factory-built model refuse non-loopback endpoints."""

OFFLINE = "offline"
PROVIDERS = ("openai", "azure_openai", "anthropic", "google_genai", "ollama")
DEFAULT_MODELS = {
    "openai": "gpt-4o-mini",
    "anthropic": "claude-sonnet-4-5",
    "google_genai": "gemini-2.5-flash",
    "ollama": "llama3.1",
}
# For messages: where a model built without a base URL sends its requests.
PUBLIC_URLS = {
    "openai": "https://api.openai.com/v1",
    "anthropic": "https://api.anthropic.com",
    "google_genai": "https://generativelanguage.googleapis.com",
}
DEFAULT_OLLAMA_HOST = "http://127.0.0.1:11434"
StructuredOutput = Literal["json_schema", "function_calling", "json_mode"]
# How each provider is asked for an answer of a fixed shape when BUNSEKI_LLM_STRUCTURED_OUTPUT is
# "auto": a JSON schema the server constrains decoding with where it supports one (OpenAI, Azure,
# Gemini, Ollama, and llama.cpp/vLLM/LM Studio behind a base URL, which ignore named tool_choice),
# a forced tool call for Anthropic. json_mode (JSON of any shape, the schema in the prompt) is the
# fallback for servers that reject both; it is chosen by the setting, never guessed.
STRUCTURED_OUTPUT: dict[str, StructuredOutput] = {
    "openai": "json_schema",
    "azure_openai": "json_schema",
    "anthropic": "function_calling",
    "google_genai": "json_schema",
    "ollama": "json_schema",
}
LOOPBACK_NAMES = frozenset({"localhost", "localhost.localdomain", "ip6-localhost"})
ACCEPTED_FORMS = (
    "Use 'provider:model' with provider one of openai, azure_openai, anthropic, google_genai, "
    "ollama (e.g. openai:gpt-4o-mini, anthropic:claude-sonnet-4-5, google_genai:gemini-2.5-flash, "
    "ollama:llama3.1, azure_openai:<deployment>), or 'offline' for the built-in brain that needs no model."
)


@dataclass(frozen=True)
class ModelSpec:
    """A parsed ``provider:model`` (``offline`` has provider "offline" and no model)."""

    provider: str
    model: str

    def __str__(self) -> str:
        return OFFLINE if self.provider == OFFLINE else f"{self.provider}:{self.model}"

    @property
    def is_offline(self) -> bool:
        """The built-in rules, no chat model at all."""
        return self.provider == OFFLINE


def parse_model_spec(spec: str) -> ModelSpec:
    """``"openai:gpt-4o-mini"`` → ModelSpec("openai", "gpt-4o-mini"); "offline" is accepted alone."""
    text = spec.strip()
    if text == OFFLINE:
        return ModelSpec(OFFLINE, "")
    provider, colon, model = text.partition(":")
    if not colon:
        raise ConfigurationError(f"model spec {spec!r} has no provider. {ACCEPTED_FORMS}")
    if provider.strip() not in PROVIDERS:
        raise ConfigurationError(f"unknown model provider {provider!r} in {spec!r}. {ACCEPTED_FORMS}")
    if not model.strip():
        raise ConfigurationError(f"model spec {spec!r} names no model. {ACCEPTED_FORMS}")
    return ModelSpec(provider.strip(), model.strip())


@dataclass(frozen=True)
class Endpoint:
    """Where a factory-built model sends requests, as far as the factory decided it."""

    provider: str
    model: str
    url: str | None  # None: the provider's public API, or whatever its SDK picks
    key_variable: str | None  # the environment variable a person sets to fix authentication
    timeout_s: float
    structured_output: StructuredOutput = "function_calling"
    max_retries: int = 0
    # The same model with a shorter request timeout and fewer retries, to fit a turn's deadline.
    rebuild: Callable[[float, int], BaseChatModel] | None = field(default=None, compare=False, repr=False)

    @property
    def spec(self) -> str:
        return f"{self.provider}:{self.model}"

    @property
    def where(self) -> str:
        """The URL for messages."""
        return self.url or PUBLIC_URLS.get(self.provider, f"the {self.provider} API")

    @property
    def is_loopback(self) -> bool:
        """True only for an explicit URL whose host is this machine."""
        return self.url is not None and is_loopback_url(self.url)


def is_loopback_url(url: str) -> bool:
    """Whether ``url`` (or a bare ``host:port``) names 127.0.0.0/8, ::1 or localhost."""
    host = urlsplit(url if "://" in url else f"http://{url}").hostname or ""
    if host in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class RemoteRequestGuard(BaseCallbackHandler):
    """Refuses, before anything is sent, requests to non-loopback endpoints while the switch is off."""

    raise_error = True  # LangChain otherwise logs a failing callback and carries on
    run_inline = True

    def __init__(self, endpoint: Endpoint) -> None:
        self.endpoint = endpoint

    def on_chat_model_start(self, serialized: dict[str, Any], messages: Any, **kwargs: Any) -> None:
        self._check()

    def on_llm_start(self, serialized: dict[str, Any], prompts: list[str], **kwargs: Any) -> None:
        self._check()

    def _check(self) -> None:
        if not ALLOW_REMOTE_REQUESTS and not self.endpoint.is_loopback:
            raise RuntimeError(
                f"refused a request to {self.endpoint.where} ({self.endpoint.spec}): "
                "bunseki.llm.ALLOW_REMOTE_REQUESTS is False, so only servers on 127.0.0.1, ::1 or "
                "localhost may be reached. Use a fake chat model or the local fake OpenAI server."
            )


def endpoint_of(model: BaseChatModel) -> Endpoint | None:
    """The endpoint the factory recorded on ``model``; None for models built elsewhere (fakes)."""
    callbacks = model.callbacks if isinstance(model.callbacks, list) else []
    return next((c.endpoint for c in callbacks if isinstance(c, RemoteRequestGuard)), None)


def create_chat_model(spec: str | ModelSpec, settings: Settings) -> BaseChatModel:
    """The LangChain chat model for ``spec``, configured from ``settings``; no network is used."""
    parsed = parse_model_spec(spec) if isinstance(spec, str) else spec
    builders = {
        "openai": _openai,
        "azure_openai": _azure_openai,
        "anthropic": _anthropic,
        "google_genai": _google_genai,
        "ollama": _ollama,
    }
    if parsed.is_offline:
        raise ConfigurationError(
            "'offline' is not a chat model: use bunseki.brain.factory.create_analyst_brain('offline', settings)"
        )
    if parsed.provider not in builders:
        raise ConfigurationError(f"unknown model provider {parsed.provider!r}. {ACCEPTED_FORMS}")
    settings = provider_limits(parsed.provider, settings)
    model, endpoint = builders[parsed.provider](parsed.model, settings)
    choice = settings.llm_structured_output
    method: StructuredOutput = STRUCTURED_OUTPUT[parsed.provider] if choice == "auto" else choice

    def rebuild(timeout_s: float, retries: int) -> BaseChatModel:
        return create_chat_model(
            parsed, settings.model_copy(update={"llm_timeout_s": timeout_s, "llm_max_retries": retries})
        )

    endpoint = replace(endpoint, structured_output=method, max_retries=settings.llm_max_retries, rebuild=rebuild)
    model.callbacks = [RemoteRequestGuard(endpoint)]
    return model


def provider_limits(provider: str, settings: Settings) -> Settings:
    """``settings`` with ``provider``'s own request timeout and retries (BUNSEKI_LLM_TIMEOUT_S_BY_PROVIDER,
    BUNSEKI_LLM_MAX_RETRIES_BY_PROVIDER) in the global fields, and the per-provider maps emptied, so
    that what a builder reads is what applies and a rebuilt model keeps the values it is given."""
    timeouts = {str(name): value for name, value in settings.llm_timeout_s_by_provider.items()}
    retries = {str(name): value for name, value in settings.llm_max_retries_by_provider.items()}
    return settings.model_copy(
        update={
            "llm_timeout_s": timeouts.get(provider, settings.llm_timeout_s),
            "llm_max_retries": retries.get(provider, settings.llm_max_retries),
            "llm_timeout_s_by_provider": {},
            "llm_max_retries_by_provider": {},
        }
    )


def within_deadline(model: BaseChatModel) -> BaseChatModel:
    """``model``, or the same model with a request timeout and retries that fit in what is left of
    the turn (`bunseki.deadline`); raises `ModelTimeoutError` when nothing is left."""
    check_deadline()
    left = remaining_s()
    endpoint = endpoint_of(model)
    if left is None or endpoint is None or endpoint.rebuild is None:
        return model
    if left >= endpoint.timeout_s * (endpoint.max_retries + 1):
        return model
    timeout_s = min(endpoint.timeout_s, left)
    retries = max(0, min(endpoint.max_retries, int(left // timeout_s) - 1))
    return endpoint.rebuild(timeout_s, retries)


def available_models(settings: Settings) -> list[str]:
    """Specs worth offering in a model picker: offline, the configured model, configured providers."""
    specs = [OFFLINE]
    configured = _configured_spec(settings)
    if configured is not None:
        specs.append(str(configured))
    if settings.openai_api_key and not settings.llm_base_url:
        specs.append(f"openai:{DEFAULT_MODELS['openai']}")
    if settings.anthropic_api_key:
        specs.append(f"anthropic:{DEFAULT_MODELS['anthropic']}")
    if settings.google_api_key:
        specs.append(f"google_genai:{DEFAULT_MODELS['google_genai']}")
    if settings.ollama_host:
        specs.append(f"ollama:{DEFAULT_MODELS['ollama']}")
    return list(dict.fromkeys(specs))


def _configured_spec(settings: Settings) -> ModelSpec | None:
    try:
        spec = parse_model_spec(settings.model)
    except ConfigurationError:
        return None
    return None if spec.provider == OFFLINE else spec


# --- one builder per provider: (model, endpoint) ---


def _openai(model: str, settings: Settings) -> tuple[BaseChatModel, Endpoint]:
    with _requires("langchain-openai", "openai"):
        from langchain_openai import ChatOpenAI

    common = _common(settings)
    if settings.llm_base_url:
        # Any OpenAI-compatible server (vLLM, llama.cpp, LM Studio…); many need no key.
        key = settings.openai_api_key or SecretStr("not-needed")
        chat = ChatOpenAI(
            model=model,
            base_url=settings.llm_base_url,
            api_key=key,
            use_responses_api=False,
            # langchain-openai sends the cap as max_completion_tokens, which some servers ignore
            # (llama-cpp-python generates to the end of its context): the older name goes too.
            extra_body={"max_tokens": settings.llm_max_tokens},
            stream_usage=True,  # a streamed answer reports its tokens too (on by default for OpenAI's URL only)
            **common,
        )
        endpoint = Endpoint("openai", model, settings.llm_base_url, "OPENAI_API_KEY", settings.llm_timeout_s)
        return chat, endpoint
    key = _require_key(settings.openai_api_key, "OPENAI_API_KEY", "openai")
    chat = ChatOpenAI(model=model, api_key=key, **common)
    return chat, Endpoint("openai", model, None, "OPENAI_API_KEY", settings.llm_timeout_s)


def _azure_openai(model: str, settings: Settings) -> tuple[BaseChatModel, Endpoint]:
    with _requires("langchain-openai", "azure_openai"):
        from langchain_openai import AzureChatOpenAI

    if not settings.azure_openai_api_key or not settings.azure_openai_endpoint:
        raise ConfigurationError(
            "azure_openai needs AZURE_OPENAI_API_KEY and AZURE_OPENAI_ENDPOINT "
            "(and optionally OPENAI_API_VERSION): set both in the environment or in .env"
        )
    chat = AzureChatOpenAI(
        azure_deployment=model,
        azure_endpoint=settings.azure_openai_endpoint,
        api_version=settings.azure_openai_api_version,
        api_key=settings.azure_openai_api_key,
        stream_usage=True,  # a streamed answer still reports its tokens
        **_common(settings),
    )
    endpoint = Endpoint(
        "azure_openai", model, settings.azure_openai_endpoint, "AZURE_OPENAI_API_KEY", settings.llm_timeout_s
    )
    return chat, endpoint


def _anthropic(model: str, settings: Settings) -> tuple[BaseChatModel, Endpoint]:
    with _requires("langchain-anthropic", "anthropic"):
        from langchain_anthropic import ChatAnthropic

    key = _require_key(settings.anthropic_api_key, "ANTHROPIC_API_KEY", "anthropic")
    chat = ChatAnthropic(model_name=model, api_key=key, **_common(settings))  # max_tokens: the cap
    return chat, Endpoint("anthropic", model, None, "ANTHROPIC_API_KEY", settings.llm_timeout_s)


def _google_genai(model: str, settings: Settings) -> tuple[BaseChatModel, Endpoint]:
    with _requires("langchain-google-genai", "google_genai"):
        from langchain_google_genai import ChatGoogleGenerativeAI

    key = _require_key(settings.google_api_key, "GOOGLE_API_KEY", "google_genai")
    common = _common(settings)
    chat = ChatGoogleGenerativeAI(model=model, api_key=key, max_output_tokens=common.pop("max_tokens"), **common)
    return chat, Endpoint("google_genai", model, None, "GOOGLE_API_KEY", settings.llm_timeout_s)


def _ollama(model: str, settings: Settings) -> tuple[BaseChatModel, Endpoint]:
    with _requires("langchain-ollama", "ollama"):
        from langchain_ollama import ChatOllama

    # Always explicit, so the ollama client does not consult OLLAMA_HOST behind the settings' back.
    host = settings.ollama_host or DEFAULT_OLLAMA_HOST
    chat = ChatOllama(
        model=model,
        base_url=host,
        temperature=settings.llm_temperature,
        num_predict=settings.llm_max_tokens,
        client_kwargs={"timeout": settings.llm_timeout_s},
        # The ollama client does not retry: its sync client (the one Bunseki uses) gets our retries.
        sync_client_kwargs={"transport": RetryingTransport(settings.llm_max_retries)},
    )
    return chat, Endpoint("ollama", model, host, None, settings.llm_timeout_s)


def _common(settings: Settings) -> dict[str, Any]:
    """What every SDK-backed model gets; the SDKs retry 408/409/429/5xx and dropped connections with
    exponential backoff and honour Retry-After (Ollama's client does not: `RetryingTransport` does)."""
    return {
        "temperature": settings.llm_temperature,
        "timeout": settings.llm_timeout_s,
        "max_retries": settings.llm_max_retries,
        "max_tokens": settings.llm_max_tokens,
    }


def _require_key(key: SecretStr | None, variable: str, provider: str) -> SecretStr:
    if not key:
        raise ConfigurationError(
            f"{provider} needs an API key: set {variable} (or BUNSEKI_{variable}) in the environment or "
            "in .env, or choose another model with BUNSEKI_MODEL (e.g. 'offline')"
        )
    return key


@contextmanager
def _requires(package: str, provider: str) -> Iterator[None]:
    try:
        yield
    except ImportError as exc:
        raise ConfigurationError(
            f"the {provider} provider needs the Python package {package}: pip install {package}"
        ) from exc


# --- turning provider SDK exceptions into ModelError, once ---

# "module.Class" names; a module that was never imported cannot have raised its exceptions,
# so they are looked up in sys.modules and nothing is imported to classify an error.
_TIMEOUTS = ("openai.APITimeoutError", "anthropic.APITimeoutError", "httpx.TimeoutException")
_CONNECTION_FAILURES = ("openai.APIConnectionError", "anthropic.APIConnectionError", "httpx.TransportError")
_REQUEST_FAILURES = (
    "openai.APIError",
    "anthropic.APIError",
    "httpx.HTTPError",
    "ollama.ResponseError",
    "google.genai.errors.APIError",
    "langchain_google_genai.chat_models.ChatGoogleGenerativeAIError",
)
# A reset while the answer was being read (a streamed answer cut off mid-way): openai uses httpx2.
_BROKEN_OFF = ("httpx.ReadError", "httpx2.ReadError")
_CUT_OFF_ANSWERS = ("openai.LengthFinishReasonError", "openai.ContentFilterFinishReasonError")


@contextmanager
def translate_model_errors(endpoint: Endpoint | None = None) -> Iterator[None]:
    """Re-raise provider SDK and network failures as `ModelRequestError` (cut-off answers as
    `ModelOutputError`), with a message that says what to check; other exceptions pass."""
    try:
        yield
    except BunsekiError:
        raise
    except Exception as exc:
        if isinstance(exc, _loaded(_CUT_OFF_ANSWERS)):
            # The SDK's message carries the raw usage record: say what happened and what to change.
            reason = "its length limit" if "Length" in type(exc).__name__ else "the provider's content filter"
            raise ModelOutputError(
                f"the model's answer was cut off by {reason}; raise BUNSEKI_LLM_MAX_TOKENS or use a larger model"
            ) from exc
        message = describe_request_error(exc, endpoint)
        if message is None:
            raise
        kind = ModelTimeoutError if _timed_out(exc) else ModelRequestError
        raise kind(message) from exc


def describe_request_error(exc: BaseException, endpoint: Endpoint | None) -> str | None:
    """What went wrong with a model request and what to do; None if ``exc`` is not one."""
    where = endpoint.where if endpoint else "the model server"
    if any(isinstance(cause, _loaded(_BROKEN_OFF)) for cause in _chain(exc)):
        return f"the connection to {where} broke off while the answer was coming: try again"
    for cause in _chain(exc):
        status = _status(cause)
        if status is not None:
            return _status_message(status, cause, endpoint, where)
        if isinstance(cause, (TimeoutError, *_loaded(_TIMEOUTS))):
            seconds = f" within {endpoint.timeout_s:g} s" if endpoint else ""
            return (
                f"the server at {where} did not answer{seconds}: try again, or raise BUNSEKI_LLM_TIMEOUT_S "
                "for slow models"
            )
        if isinstance(cause, (ConnectionError, *_loaded(_CONNECTION_FAILURES))):
            return f"could not connect to {where}: check that the server is running and the URL is right"
    if isinstance(exc, _loaded(_REQUEST_FAILURES)):
        return f"the request to {where} failed ({type(exc).__name__}): {_short(exc)}"
    return None


def _timed_out(exc: BaseException) -> bool:
    for cause in _chain(exc):
        status = _status(cause)
        if status is not None:
            return status in (408, 504)
        if isinstance(cause, (TimeoutError, *_loaded(_TIMEOUTS))):
            return True
    return False


def _status_message(status: int, exc: BaseException, endpoint: Endpoint | None, where: str) -> str:
    key = endpoint.key_variable if endpoint and endpoint.key_variable else "the API key"
    if status == 401:
        return f"authentication failed: check {key} ({where} answered 401)"
    if status == 403:
        return f"permission denied: check that {key} may use this model ({where} answered 403)"
    if status == 404:
        model = f" {endpoint.model!r}" if endpoint else ""
        return f"{where} does not know the model{model} (404): check the model name in BUNSEKI_MODEL"
    if status == 429:
        return f"{where} refused the request: rate limit or quota exceeded (429). Wait, or check the quota"
    if status == 408:
        return f"the server at {where} timed out (408): try again later"
    if status >= 500:
        return f"the server at {where} failed ({status}): try again later. {_short(exc)}"
    return f"{where} rejected the request ({status}): {_short(exc)}"


def _status(exc: BaseException) -> int | None:
    """The HTTP status an SDK exception carries (openai, anthropic, ollama, httpx, google-genai)."""
    response = getattr(exc, "response", None)
    for value in (getattr(exc, "status_code", None), getattr(response, "status_code", None)):
        if isinstance(value, int) and 100 <= value < 600:
            return value
    code = getattr(exc, "code", None)
    if isinstance(exc, _loaded(("google.genai.errors.APIError",))) and isinstance(code, int):
        return code
    return None


def _chain(exc: BaseException) -> Iterator[BaseException]:
    """``exc`` and the exceptions it was raised from (LangChain integrations wrap SDK errors)."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        yield current
        current = current.__cause__ or (None if current.__suppress_context__ else current.__context__)


def _loaded(names: tuple[str, ...]) -> tuple[type[BaseException], ...]:
    found: list[type[BaseException]] = []
    for name in names:
        module_name, _, attribute = name.rpartition(".")
        candidate = getattr(sys.modules.get(module_name), attribute, None)
        if isinstance(candidate, type) and issubclass(candidate, BaseException):
            found.append(candidate)
    return tuple(found)


def _short(exc: BaseException, limit: int = 300) -> str:
    text = " ".join(str(exc).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"

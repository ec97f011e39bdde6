"""Configuration: the only module that reads the environment.

Every setting is an environment variable with the prefix ``BUNSEKI_`` (or a line in ``.env``),
for example ``BUNSEKI_SANDBOX_TIMEOUT_S=60``. The composition roots (CLI, API, UI) build one
`Settings` and pass it, or the parts a component needs, downward.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    AliasChoices,
    BaseModel,
    ConfigDict,
    Field,
    SecretStr,
    TypeAdapter,
    ValidationError,
    field_validator,
)
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from bunseki.errors import ConfigurationError

IsolationChoice = Literal["auto", "bwrap", "landlock"]
StructuredOutputChoice = Literal["auto", "json_schema", "function_calling", "json_mode"]
ProviderName = Literal["openai", "azure_openai", "anthropic", "google_genai", "ollama"]
TimeoutS = Annotated[float, Field(gt=0)]
Retries = Annotated[int, Field(ge=0, le=10)]


class ModelPrice(BaseModel):
    """What a model costs, in US dollars per million tokens."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    prompt: float = Field(ge=0, description="USD per 1M prompt (input) tokens.")
    completion: float = Field(ge=0, description="USD per 1M completion (output) tokens.")


_PRICES = TypeAdapter(dict[str, ModelPrice])
PRICES_EXAMPLE = '{"openai:gpt-4o-mini": {"prompt": 0.15, "completion": 0.6}}'


class Settings(BaseSettings):
    """Bunseki's settings, read from ``BUNSEKI_*`` environment variables and ``.env``."""

    model_config = SettingsConfigDict(
        env_prefix="BUNSEKI_",
        env_file=".env",
        env_ignore_empty=True,
        extra="ignore",
        frozen=True,
        populate_by_name=True,
    )

    workspace_root: Path = Field(
        default=Path("workspace"),
        description="Holds one workspace directory per session and the embedded SQLite database (bunseki.db).",
    )

    database_url: str | None = Field(
        default=None,
        description="SQLAlchemy URL, e.g. postgresql+psycopg://user:pass@host/db; "
        "default: SQLite in the workspace root (bunseki.db).",
    )

    @property
    def database(self) -> str:
        """The database URL in force: the configured one, or SQLite under the workspace root."""
        return self.database_url or f"sqlite:///{(self.workspace_root / 'bunseki.db').resolve()}"

    # --- knowledge bases (RAG) ---
    qdrant_url: str | None = Field(
        default=None,
        validation_alias=AliasChoices("BUNSEKI_QDRANT_URL", "QDRANT_URL"),
        description="A Qdrant server, e.g. http://localhost:6333; default: embedded Qdrant under the workspace root.",
    )
    qdrant_api_key: SecretStr | None = Field(
        default=None, validation_alias=AliasChoices("BUNSEKI_QDRANT_API_KEY", "QDRANT_API_KEY")
    )
    rag_chunk_chars: int = Field(
        default=400, ge=100, le=4000, description="Target length of a knowledge-base chunk, in characters."
    )
    rag_chunk_overlap_chars: int = Field(
        default=80, ge=0, le=1000, description="Text of the previous chunk repeated at the start of the next one."
    )

    @field_validator("llm_prices", mode="before")
    @classmethod
    def _prices(cls, value: Any) -> dict[str, ModelPrice]:
        # Raised as ConfigurationError (not a ValueError pydantic would bury in a ValidationError),
        # so the CLI and the servers say which variable to fix.
        if isinstance(value, str):
            try:
                value = json.loads(value) if value.strip() else {}
            except json.JSONDecodeError as exc:
                raise ConfigurationError(
                    f"BUNSEKI_LLM_PRICES is not valid JSON ({exc.msg} at character {exc.pos}); "
                    f"write it like {PRICES_EXAMPLE}"
                ) from None
        try:
            return _PRICES.validate_python(value)
        except ValidationError as exc:
            problems = "; ".join(
                f"{'.'.join(str(part) for part in error['loc'])}: {error['msg']}"
                for error in exc.errors(include_url=False)[:3]
            )
            raise ConfigurationError(
                f"BUNSEKI_LLM_PRICES does not map models to prices ({problems}); write it like {PRICES_EXAMPLE}"
            ) from None

    @property
    def qdrant_path(self) -> Path:
        """Where embedded Qdrant keeps its collections (unused when QDRANT_URL names a server)."""
        return self.workspace_root / "qdrant"

    @property
    def embedding_cache_path(self) -> Path:
        """The SQLite file of passage embeddings by content hash, shared by every collection."""
        return self.workspace_root / "embeddings.sqlite"

    # --- the analyst's brain ---
    model: str = Field(
        default="offline",
        description="provider:model, e.g. openai:gpt-4o-mini, anthropic:claude-sonnet-4-5, "
        "google_genai:gemini-2.5-flash, ollama:llama3.1, azure_openai:<deployment>; 'offline' needs no key.",
    )
    llm_base_url: str | None = Field(
        default=None, description="Base URL of an OpenAI-compatible server (vLLM, llama.cpp, LM Studio…)."
    )
    llm_temperature: float = Field(default=0.0, ge=0, le=2)
    llm_timeout_s: float = Field(
        default=120.0, gt=0, description="How long one request to the model may take before it is abandoned."
    )
    llm_max_retries: int = Field(
        default=2,
        ge=0,
        le=10,
        description="Retries of a failed model request (429, 5xx, connection reset, timeout), with backoff "
        "that honours the server's Retry-After.",
    )
    llm_timeout_s_by_provider: dict[ProviderName, TimeoutS] = Field(
        default_factory=dict,
        description='BUNSEKI_LLM_TIMEOUT_S for some providers only, as JSON: {"ollama": 300} gives a local '
        "model more time while the others keep the global value.",
    )
    llm_max_retries_by_provider: dict[ProviderName, Retries] = Field(
        default_factory=dict,
        description='BUNSEKI_LLM_MAX_RETRIES for some providers only, as JSON: {"ollama": 4, "openai": 1}.',
    )
    llm_max_tokens: int = Field(
        default=2048,
        ge=16,
        description="The most tokens the model may generate in one answer; a model that rambles is cut off here.",
    )
    llm_structured_output: StructuredOutputChoice = Field(
        default="auto",
        description="How answers of a fixed shape are requested: 'auto' picks per provider (see the README's "
        "provider table); json_schema, function_calling or json_mode force one, e.g. for a server that "
        "rejects json_schema.",
    )
    turn_deadline_s: float = Field(
        default=600.0,
        gt=0,
        description="A turn's time limit: no model call starts after it, so a turn ends at most one model "
        "request (BUNSEKI_LLM_TIMEOUT_S) later.",
    )
    llm_prices: Annotated[dict[str, ModelPrice], NoDecode] = Field(
        default_factory=dict,
        description="Optional price table turning a turn's tokens into cost: JSON mapping 'provider:model' (or "
        "'model') to USD per 1M tokens, e.g. " + PRICES_EXAMPLE + "; a model not in it has no cost.",
    )
    max_loops: int = Field(
        default=5, ge=1, le=20, description="ReAct loops per question; then the turn reports what it found so far."
    )
    history_tokens: int = Field(
        default=6000, ge=200, description="Earlier messages a turn sees, newest first, up to this many tokens."
    )
    open_sessions: int = Field(
        default=16, ge=1, description="Sessions kept open (a warm sandbox each); the least recent idle one closes."
    )

    # --- the REST API (bunseki serve) ---
    api_single_user: bool = Field(
        default=False,
        description="Serve without API keys, as the machine's one user. Refused unless bound to loopback.",
    )
    max_upload_mb: int = Field(default=200, ge=1, description="The largest data file the API accepts (413 above).")
    max_question_chars: int = Field(
        default=4000,
        ge=100,
        description="The longest question a turn accepts, in characters; longer ones are refused before any work "
        "starts (the API answers 413, the CLI exits 3).",
    )

    # Provider keys: the providers' own variable names work, as does a BUNSEKI_ prefix.
    openai_api_key: SecretStr | None = Field(
        default=None, validation_alias=AliasChoices("BUNSEKI_OPENAI_API_KEY", "OPENAI_API_KEY")
    )
    anthropic_api_key: SecretStr | None = Field(
        default=None, validation_alias=AliasChoices("BUNSEKI_ANTHROPIC_API_KEY", "ANTHROPIC_API_KEY")
    )
    google_api_key: SecretStr | None = Field(
        default=None,
        validation_alias=AliasChoices("BUNSEKI_GOOGLE_API_KEY", "GOOGLE_API_KEY", "GEMINI_API_KEY"),
    )
    azure_openai_api_key: SecretStr | None = Field(
        default=None, validation_alias=AliasChoices("BUNSEKI_AZURE_OPENAI_API_KEY", "AZURE_OPENAI_API_KEY")
    )
    azure_openai_endpoint: str | None = Field(
        default=None, validation_alias=AliasChoices("BUNSEKI_AZURE_OPENAI_ENDPOINT", "AZURE_OPENAI_ENDPOINT")
    )
    azure_openai_api_version: str = Field(
        default="2024-10-21",
        validation_alias=AliasChoices("BUNSEKI_AZURE_OPENAI_API_VERSION", "OPENAI_API_VERSION"),
    )
    ollama_host: str | None = Field(default=None, validation_alias=AliasChoices("BUNSEKI_OLLAMA_HOST", "OLLAMA_HOST"))

    # --- sandbox: isolation ---
    sandbox_isolation: IsolationChoice = Field(
        default="auto",
        description="Isolation tier: 'auto' picks the strongest that works here.",
    )
    sandbox_unsafe_local: bool = Field(
        default=False,
        description=(
            "Run generated code with resource limits but without OS isolation when no tier "
            "works. Only for machines where every person and every data file is trusted."
        ),
    )
    sandbox_uid: int = Field(
        default=65534,
        ge=1,
        description="User id the sandbox runs as when Bunseki itself runs as root.",
    )
    sandbox_seccomp: bool = Field(default=True, description="Stack a seccomp syscall filter on the isolation tier.")
    sandbox_pool_size: int = Field(
        default_factory=lambda: os.cpu_count() or 1,
        ge=0,
        le=256,
        description=(
            "Warm sandboxes a server (bunseki serve, bunseki ui) keeps ready for new sessions; "
            "0 starts each session's sandbox when it opens. Default: the number of cores."
        ),
    )

    # --- sandbox: where sessions' sandboxes run (README "Scale out") ---
    sandbox_backend: Literal["local", "ray"] = Field(
        default="local",
        description="local: child processes of this server; ray: one actor per session on a Ray cluster.",
    )
    ray_address: str | None = Field(
        default=None,
        description="The Ray cluster's head, host:port (sandbox_backend=ray); RAY_AUTH_TOKEN authenticates.",
    )
    ray_namespace: str = Field(default="bunseki", min_length=1, description="Ray namespace of the session actors.")
    session_idle_s: float = Field(
        default=1800.0,
        gt=0,
        description="A session's sandbox idle this long is stopped (its state stays; the next question restores it).",
    )
    replica_heartbeat_s: float = Field(
        default=10.0,
        gt=0,
        le=3600,
        description=(
            "How often a process answering questions records in the database that it lives; a turn of a "
            "replica on another machine whose record is 3 times this old is taken as interrupted."
        ),
    )

    # --- sandbox: limits per cell ---
    sandbox_timeout_s: float = Field(default=180.0, gt=0, le=24 * 3600)
    sandbox_cpu_s: float = Field(default=180.0, gt=0, le=24 * 3600)
    sandbox_memory_mb: int = Field(default=1024, ge=64)
    sandbox_max_processes: int = Field(default=64, ge=4)
    sandbox_output_kb: int = Field(default=20, ge=1)
    sandbox_max_artifacts: int = Field(default=20, ge=0)
    sandbox_max_artifact_mb: int = Field(default=100, ge=1)
    sandbox_disk_mb: int = Field(default=1024, ge=1)

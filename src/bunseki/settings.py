"""Configuration: the only module that reads the environment.

Every setting is an environment variable with the prefix ``BUNSEKI_`` (or a line in ``.env``),
for example ``BUNSEKI_SANDBOX_TIMEOUT_S=60``. The composition roots (CLI, API, UI) build one
`Settings` and pass it, or the parts a component needs, downward.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

IsolationChoice = Literal["auto", "bwrap", "landlock"]


class Settings(BaseSettings):
    """Bunseki's settings, read from ``BUNSEKI_*`` environment variables and ``.env``."""

    model_config = SettingsConfigDict(
        env_prefix="BUNSEKI_",
        env_file=".env",
        env_ignore_empty=True,
        extra="ignore",
        frozen=True,
    )

    workspace_root: Path = Field(
        default=Path("workspace"),
        description="Holds one workspace directory per session (and, later, the embedded database).",
    )

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
    sandbox_seccomp: bool = Field(
        default=True, description="Stack a seccomp syscall filter on the isolation tier."
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

"""What goes into the sandbox (limits) and what comes out (results), as pydantic models."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from bunseki.settings import Settings

Tier = Literal["bwrap", "landlock", "unsafe"]


class Limits(BaseModel):
    """Per-cell resource limits; every field has a ``BUNSEKI_SANDBOX_*`` setting."""

    model_config = ConfigDict(frozen=True)

    timeout_s: float = Field(default=180.0, gt=0)
    cpu_s: float = Field(default=180.0, gt=0)
    memory_mb: int = Field(default=1024, ge=64)
    max_processes: int = Field(default=64, ge=4)
    output_bytes: int = Field(default=20_000, ge=1000)
    max_artifacts: int = Field(default=20, ge=0)
    max_artifact_mb: int = Field(default=100, ge=1)
    disk_mb: int = Field(default=1024, ge=1)

    @classmethod
    def from_settings(cls, settings: Settings) -> Limits:
        return cls(
            timeout_s=settings.sandbox_timeout_s,
            cpu_s=settings.sandbox_cpu_s,
            memory_mb=settings.sandbox_memory_mb,
            max_processes=settings.sandbox_max_processes,
            output_bytes=settings.sandbox_output_kb * 1000,
            max_artifacts=settings.sandbox_max_artifacts,
            max_artifact_mb=settings.sandbox_max_artifact_mb,
            disk_mb=settings.sandbox_disk_mb,
        )


class IsolationReport(BaseModel):
    """The isolation the sandbox uses on this machine, and why."""

    tier: Tier | None
    reason: str
    run_as_uid: int
    seccomp: bool
    checks: dict[str, str] = Field(default_factory=dict)

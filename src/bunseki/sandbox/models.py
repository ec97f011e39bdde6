"""What goes into the sandbox (limits) and what comes out (results), as pydantic models."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from bunseki.settings import Settings

Tier = Literal["bwrap", "landlock", "unsafe"]
LimitName = Literal["wall_time", "cpu_time", "memory", "disk", "output"]


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


class ExpectedOutput(BaseModel):
    """An output the code generator announces (a figure or a table file)."""

    file_name: str
    description: str
    output_type: Literal["figure", "table"]


class TableResult(BaseModel):
    """A preview of a DataFrame the cell displayed (its last expression, or ``display(df)``)."""

    columns: list[str]
    index: list[str]
    rows: list[list[Any]]
    shape: tuple[int, int]


class ExecutionResult(BaseModel):
    """The result of one cell: whether it succeeded, its code, output and announced outputs, plus what
    the sandbox observed.

    ``error`` is the text a person or a model reads: the traceback trimmed to the cell's own
    lines, ending with ``Type: message`` as Python prints it. ``error_type`` and ``limit`` are
    the same facts for programs.
    """

    # what the cell did
    success: bool
    code: str
    stdout: str | None = None
    error: str | None = None
    outputs: list[ExpectedOutput] = Field(default_factory=list)
    # what the sandbox observed
    stderr: str = ""
    error_type: str | None = None
    limit: LimitName | None = Field(default=None, description="The limit the cell hit, if any.")
    artifacts: list[Path] = Field(default_factory=list, description="Files the cell wrote or that were saved for it.")
    tables: list[TableResult] = Field(default_factory=list)
    duration_s: float = 0.0
    cell: int | None = Field(default=None, description="Number of the cell in its session.")
    notes: list[str] = Field(default_factory=list)
    restarted: bool = Field(default=False, description="The worker was restarted and reloaded its saved state.")

    @property
    def figures(self) -> list[Path]:
        return [path for path in self.artifacts if path.suffix.lower() in {".png", ".jpg", ".svg"}]


class IsolationReport(BaseModel):
    """The isolation the sandbox uses on this machine, and why."""

    tier: Tier | None
    reason: str
    run_as_uid: int
    seccomp: bool
    checks: dict[str, str] = Field(default_factory=dict)

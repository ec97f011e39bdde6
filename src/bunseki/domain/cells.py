"""A cell: Python code run once in a session's sandbox, and what came of it.

The analyst's generated code, a data tool's code, an EDA step and an investigation's variant all run
as cells; the result says whether the cell succeeded, what it printed and wrote, and which limit
stopped it, if one did.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field

LimitName = Literal["wall_time", "cpu_time", "memory", "disk", "output", "processes"]


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

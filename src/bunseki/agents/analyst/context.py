"""Run dependencies of the analyst graph: given per invocation, never checkpointed."""

from __future__ import annotations

from dataclasses import dataclass

from bunseki.brain.base import Brain
from bunseki.data.summary import DataFrameInfo
from bunseki.sandbox import Sandbox


@dataclass
class AnalystContext:
    """The brain that judges, the sandbox that holds ``df`` and runs code, and what ``df`` is."""

    brain: Brain
    sandbox: Sandbox
    data: DataFrameInfo | None
    max_loops: int = 5

"""Run dependencies of the analyst graph: given per invocation, never checkpointed."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from bunseki.brain.analyst.contract import AnalystBrain
from bunseki.data.summary import DataFrameInfo
from bunseki.sandbox.backend import SessionSandbox
from bunseki.state import DataState


class StepLog(Protocol):
    """Where applied steps are recorded (the store, or memory); returns the step's position."""

    def __call__(
        self,
        *,
        step_type: str,
        parameters: dict[str, Any],
        result: dict[str, Any],
        rows_before: int | None,
        rows_after: int | None,
        changes_data: bool,
        duration_s: float,
    ) -> int: ...


@dataclass
class AnalystContext:
    """The brain that judges, the sandbox that runs code, and the data state it works on."""

    brain: AnalystBrain
    sandbox: SessionSandbox
    data_state: DataState | None
    max_loops: int = 5
    record_step: StepLog | None = None
    before_code: Callable[[], None] = field(default=lambda: None)  # put the current data in the sandbox
    after_code: Callable[[], None] = field(default=lambda: None)

    @property
    def data(self) -> DataFrameInfo | None:
        return self.data_state.info if self.data_state is not None else None

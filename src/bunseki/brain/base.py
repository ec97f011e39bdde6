"""The brain interface: the judgement the analyst graph's nodes delegate.

The graph does not know which brain it has: an `LLMBrain` over any chat model, or the
deterministic `OfflineBrain`. A brain never runs code; the graph does, in the sandbox.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from bunseki.brain.models import AnalystView, CodeGenOutput, ReasonOutput
from bunseki.report.models import ReportOutput


@runtime_checkable
class Brain(Protocol):
    """Judgement for the analyst: decide, write code, write the report."""

    @property
    def name(self) -> str:
        """What to show people: "offline", "openai:gpt-4o-mini", …"""
        ...

    def decide(self, view: AnalystView) -> ReasonOutput:
        """``reason``: ask, act (with an instruction) or finalize."""
        ...

    def write_code(self, view: AnalystView) -> CodeGenOutput:
        """``code_exec``: Python for ``view.instruction``, run on ``df`` in the sandbox."""
        ...

    def write_report(self, view: AnalystView) -> ReportOutput:
        """``report``: the conclusion and its evidence, from the executions only."""
        ...

"""Run dependencies of the EDA graph: given per invocation, never checkpointed."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from bunseki.brain.eda.contract import EdaBrain
from bunseki.sandbox.backend import SessionSandbox


@dataclass
class EdaContext:
    """The brain that judges, the run's workspace, and a sandbox started on first use.

    ``sandbox`` returns the run's sandbox (the service starts it once and stops it after the
    invocation); ``max_upload_bytes`` bounds the data file validate_data reads.
    """

    brain: EdaBrain
    workspace: Path
    sandbox: Callable[[], SessionSandbox]
    max_upload_bytes: int | None = None

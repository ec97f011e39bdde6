"""The one interface services reach sandboxes through, whatever runs them (local processes or Ray).

A backend keeps at most one sandbox per session id; every call names the session. Services and agents
hold a `SessionSandbox` (the same ``run``/``load_frame``/``workspace`` surface as `Sandbox`) and never
learn which backend is behind it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:
    import pandas as pd

    from bunseki.sandbox.models import ExecutionResult


@dataclass(frozen=True)
class BackendHealth:
    """What `/health` and `bunseki doctor` report about a backend."""

    backend: str  # "local" or "ray"
    ok: bool
    sessions: int  # sandboxes this backend holds now (a Ray backend: actors in its namespace)
    warm: int = 0  # started sandboxes waiting for new sessions
    detail: dict[str, str | int | float] = field(default_factory=dict)


@runtime_checkable
class SandboxBackend(Protocol):
    """ensure, execute, reset, stop and health, per session id (DESIGN.md, "Sandbox")."""

    name: str

    def ensure(self, session_id: str, workspace: Path) -> None:
        """Start the session's sandbox on ``workspace``, or find the running one; idempotent."""
        ...

    def execute(
        self, session_id: str, code: str, *, timeout: float | None = None, check_policy: bool = True
    ) -> ExecutionResult:
        """Run one cell. Never raises for what the cell does; raises `SandboxLost` when the cell was lost."""
        ...

    def load_frame(self, session_id: str, frame: pd.DataFrame, name: str = "df") -> None:
        """Bind ``frame`` to ``name`` in the session's sandbox (and in its saved state)."""
        ...

    def reset(self, session_id: str) -> None:
        """Drop the session's interpreter state; the next cell starts clean."""
        ...

    def stop(self, session_id: str) -> None:
        """End the session's sandbox (its workspace and saved state stay)."""
        ...

    def health(self) -> BackendHealth: ...

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

    from bunseki.domain import ExecutionResult


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
    """What a sandbox backend does: ensure, execute, reset, stop and health, per session id."""

    name: str

    def new_workspace(self) -> Path:
        """A fresh workspace for a new session under the workspace root (the local backend hands over a
        warm sandbox's, which that session's first ensure() adopts)."""
        ...

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

    def release(self, session_id: str) -> None:
        """This process is done with the session's sandbox for now. A backend whose sandboxes are this
        process's children stops it; a shared one (Ray) leaves it to other replicas and to idle eviction."""
        ...

    def stop(self, session_id: str) -> None:
        """End the session's sandbox (its workspace and saved state stay)."""
        ...

    def abandon(self, session_id: str, caller: str) -> bool:
        """Stop the cell that ``caller`` (a process, `bunseki.owners.process_owner`, now gone) left running
        in the session's sandbox, as its time limit would; True if one was stopped. Sandboxes that end
        with the process that started them (the local backend's) never have such a cell."""
        ...

    def health(self) -> BackendHealth: ...

    def close(self) -> None:
        """Let go of what this process holds (the local backend stops its sandboxes and its warm pool;
        a Ray backend disconnects, and its session actors stay for the other replicas)."""
        ...


class SessionSandbox:
    """One session's sandbox as services and agents hold it: every call goes to the backend with its id.

    >>> with SessionSandbox(backend, "cell-1", workspace) as box:
    ...     box.load_frame(frame)
    ...     result = box.run("df.describe()")
    """

    def __init__(self, backend: SandboxBackend, session_id: str, workspace: Path) -> None:
        self.backend = backend
        self.session_id = session_id
        self.workspace = Path(workspace).resolve()

    def __enter__(self) -> SessionSandbox:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def start(self) -> None:
        """Start the session's sandbox, or find the running one."""
        self.backend.ensure(self.session_id, self.workspace)

    def run(self, code: str, *, timeout: float | None = None, check_policy: bool = True) -> ExecutionResult:
        """Run one cell (see `SandboxBackend.execute`)."""
        return self.backend.execute(self.session_id, code, timeout=timeout, check_policy=check_policy)

    def load_frame(self, frame: pd.DataFrame, name: str = "df") -> None:
        self.backend.load_frame(self.session_id, frame, name)

    def reset(self) -> None:
        self.backend.reset(self.session_id)

    def close(self) -> None:
        """Stop the sandbox; the workspace and the saved state stay."""
        self.backend.stop(self.session_id)

    def release(self) -> None:
        """Let go of the sandbox without ending it for other replicas (see `SandboxBackend.release`)."""
        self.backend.release(self.session_id)

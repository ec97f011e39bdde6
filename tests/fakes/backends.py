"""A sandbox backend whose machine dies on a chosen cell, as a Ray worker node can, and which records
the cells it was asked to abandon."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from bunseki.errors import SandboxLost
from bunseki.sandbox import backends
from bunseki.sandbox.backend import BackendHealth, SandboxBackend
from bunseki.settings import Settings

if TYPE_CHECKING:
    import pandas as pd

    from bunseki.domain import ExecutionResult


class LosingBackend:
    """Runs everything in the configured (local) backend, but loses the cells whose 1-based numbers
    (counted over every ``execute`` call) are in ``lose``: the sandbox is gone and SandboxLost raised."""

    name = "losing"

    def __init__(self, settings: Settings, *, lose: set[int]) -> None:
        self.inner: SandboxBackend = backends.create(settings, warm=False)
        self.lose = lose
        self.executed = 0
        self.lost: list[str] = []  # the sessions whose cell was lost, in order
        self.stopped: list[str] = []
        self.abandoned: list[tuple[str, str]] = []  # (session, caller) of every abandon call

    def new_workspace(self) -> Path:
        return self.inner.new_workspace()

    def ensure(self, session_id: str, workspace: Path) -> None:
        self.inner.ensure(session_id, workspace)

    def execute(
        self, session_id: str, code: str, *, timeout: float | None = None, check_policy: bool = True
    ) -> ExecutionResult:
        self.executed += 1
        if self.executed in self.lose:
            self.inner.stop(session_id)  # the node went with its sandbox
            self.lost.append(session_id)
            raise SandboxLost()
        return self.inner.execute(session_id, code, timeout=timeout, check_policy=check_policy)

    def load_frame(self, session_id: str, frame: pd.DataFrame, name: str = "df") -> None:
        self.inner.load_frame(session_id, frame, name)

    def reset(self, session_id: str) -> None:
        self.inner.reset(session_id)

    def release(self, session_id: str) -> None:
        self.stop(session_id)

    def abandon(self, session_id: str, caller: str) -> bool:
        self.abandoned.append((session_id, caller))
        return self.inner.abandon(session_id, caller)

    def stop(self, session_id: str) -> None:
        self.stopped.append(session_id)
        self.inner.stop(session_id)

    def health(self) -> BackendHealth:
        return self.inner.health()

    def close(self) -> None:
        self.inner.close()

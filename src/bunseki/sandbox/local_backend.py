"""`LocalBackend`: every session's sandbox is a child process of this server, as before Ray.

One `Sandbox` per session id. A server (``warm=True``) keeps a `SandboxPool` behind it: a new
session's workspace comes from a warm sandbox (`new_workspace`), which that session's first
`ensure` adopts; later starts fork from the pool's zygote under its cap on concurrent starts.
A sandbox idle for ``session_idle_s`` is stopped by a reaper thread; its state stays in the
workspace, and the session's next call starts a new one that restores it.
"""

from __future__ import annotations

import shutil
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from bunseki.errors import SandboxError
from bunseki.sandbox import workspace as workspaces
from bunseki.sandbox.backend import BackendHealth
from bunseki.sandbox.pool import SandboxPool
from bunseki.sandbox.session import Sandbox
from bunseki.settings import Settings

if TYPE_CHECKING:
    import pandas as pd

    from bunseki.domain import ExecutionResult

REAP_EVERY_MAX_S = 30.0  # the reaper looks at least this often (more often for short idle limits)


@dataclass
class _Held:
    """A session's sandbox, when it was last used, and how many calls are in it now."""

    sandbox: Sandbox
    used: float
    active: int = 0


class LocalBackend:
    """Sandboxes as local processes, one per session id, with a warm pool for servers."""

    name = "local"

    def __init__(self, settings: Settings, *, warm: bool, clock: Callable[[], float] = time.monotonic) -> None:
        """``warm``: keep started sandboxes for new sessions (servers do; a one-off command would waste them).

        ``clock``: what idle time is measured with (tests pass one they move by hand).
        """
        self.settings = settings
        self.clock = clock
        self.pool = SandboxPool(settings) if warm and settings.sandbox_pool_size > 0 else None
        self.evicted = 0  # sandboxes stopped for idleness since this backend started
        self._held: dict[str, _Held] = {}
        self._workspaces: dict[str, Path] = {}  # every ensured session's, kept across evictions until stop
        # Warm sandboxes handed out with their workspace, not yet adopted; and since when.
        self._reserved: dict[Path, tuple[Sandbox, float]] = {}
        self._starting: dict[str, threading.Lock] = {}  # one start at a time per session
        self._lock = threading.Lock()
        self._closed = threading.Event()
        self._reaper = threading.Thread(target=self._reap_loop, name="bunseki-sandbox-reaper", daemon=True)
        self._reaper.start()
        if self.pool is not None:
            self.pool.fill()

    # --- SandboxBackend ---

    def new_workspace(self) -> Path:
        """A fresh workspace for a new session: a warm sandbox's own when one is ready (ensure adopts it)."""
        sandbox = self.pool.take() if self.pool is not None else None
        if sandbox is None:
            return workspaces.new_workspace(self.settings.workspace_root)
        with self._lock:
            self._reserved[sandbox.workspace] = (sandbox, self.clock())
        return sandbox.workspace

    def ensure(self, session_id: str, workspace: Path) -> None:
        self._sandbox(session_id, Path(workspace).resolve())
        self.reap()  # a check on every start too, not only the reaper's

    def execute(
        self, session_id: str, code: str, *, timeout: float | None = None, check_policy: bool = True
    ) -> ExecutionResult:
        with self._using(session_id) as sandbox:
            return sandbox.run(code, timeout=timeout, check_policy=check_policy)

    def load_frame(self, session_id: str, frame: pd.DataFrame, name: str = "df") -> None:
        with self._using(session_id) as sandbox:
            sandbox.load_frame(frame, name)

    def reset(self, session_id: str) -> None:
        """Stop the sandbox and forget its saved state; the next call starts on a clean namespace."""
        with self._lock:
            held = self._held.pop(session_id, None)
            workspace = self._workspaces.get(session_id)
        if held is not None:
            held.sandbox.close()
        places = {held.sandbox.work_dir} if held is not None else set()
        if workspace is not None:
            places.add(workspace)
        for place in places:
            shutil.rmtree(workspaces.internal(place, "state"), ignore_errors=True)

    def release(self, session_id: str) -> None:
        self.stop(session_id)  # a child of this process: nobody else can use it

    def abandon(self, session_id: str, caller: str) -> bool:
        return False  # a process that is gone took its sandboxes (its children) with it

    def stop(self, session_id: str) -> None:
        with self._lock:
            held = self._held.pop(session_id, None)
            self._workspaces.pop(session_id, None)
            self._starting.pop(session_id, None)
        if held is not None:
            held.sandbox.close()

    def health(self) -> BackendHealth:
        with self._lock:
            sessions = len(self._held)
        detail: dict[str, str | int | float] = {"idle_s": self.settings.session_idle_s, "evicted": self.evicted}
        warm = 0
        if self.pool is not None:
            stats = self.pool.stats()
            warm = stats.ready
            detail |= {
                "pool_size": stats.size,
                "pool_starting": stats.starting,
                "worker_pss_bytes": stats.worker_pss_bytes,
                "pool_pss_bytes": stats.pool_pss_bytes,
                "zygote": int(self.pool.zygote is not None),
            }
            if self.pool.failures:
                detail["last_failure"] = self.pool.failures[-1]
        ok = not self._closed.is_set()
        return BackendHealth(backend=self.name, ok=ok, sessions=sessions, warm=warm, detail=detail)

    # --- beyond the interface: the warm pool's count, and the end ---

    def warm_count(self) -> int:
        return self.pool.ready_count() if self.pool is not None else 0

    def close(self) -> None:
        """Stop every sandbox, held, reserved and warm (workspaces of sessions stay)."""
        self._closed.set()
        with self._lock:
            held = [entry.sandbox for entry in self._held.values()]
            reserved = [sandbox for sandbox, _ in self._reserved.values()]
            self._held.clear()
            self._reserved.clear()
            self._workspaces.clear()
        for sandbox in [*held, *reserved]:
            sandbox.close()
        if self.pool is not None:
            self.pool.close()
        self._reaper.join(timeout=5)

    # --- idle eviction ---

    def reap(self) -> int:
        """Stop the sandboxes idle for ``session_idle_s`` (not one in a call); returns how many."""
        now = self.clock()
        with self._lock:
            idle = [
                key
                for key, entry in self._held.items()
                if entry.active == 0 and now - entry.used >= self.settings.session_idle_s
            ]
            stopping = [self._held.pop(key).sandbox for key in idle]
            unused = [  # a session that was never asked anything, or never created (its workspace is gone)
                path
                for path, (_, since) in self._reserved.items()
                if now - since >= self.settings.session_idle_s or not path.exists()
            ]
            stopping += [self._reserved.pop(path)[0] for path in unused]
            self.evicted += len(idle)
        for sandbox in stopping:
            sandbox.close()
        return len(idle)

    def _reap_loop(self) -> None:
        period = min(REAP_EVERY_MAX_S, max(0.05, self.settings.session_idle_s / 4))
        while not self._closed.wait(period):
            self.reap()

    # --- internals ---

    def _sandbox(self, session_id: str, workspace: Path | None = None) -> Sandbox:
        """The session's running sandbox, started (or adopted from the pool) when it has none."""
        if self._closed.is_set():
            raise SandboxError("the sandbox backend was closed; open a new service")
        with self._lock:
            held = self._held.get(session_id)
            if held is not None and (workspace is None or held.sandbox.workspace == workspace):
                held.used = self.clock()
                return held.sandbox
            known = self._workspaces.get(session_id)
            if workspace is None and known is None:
                raise SandboxError(f"no sandbox was ensured for session {session_id}; call ensure() first")
            place = workspace or known
            assert place is not None
            self._workspaces[session_id] = place
            starting = self._starting.setdefault(session_id, threading.Lock())
        with starting:  # a second caller waits for the first one's start instead of starting another
            with self._lock:
                held = self._held.get(session_id)
                if held is not None and held.sandbox.workspace == place:
                    held.used = self.clock()
                    return held.sandbox
                replaced = self._held.pop(session_id, None)
                reserved = self._reserved.pop(place, None)
            if replaced is not None:  # ensured on another workspace: that one is over
                replaced.sandbox.close()
            sandbox = self._start(reserved[0] if reserved is not None else self._new(place))
            with self._lock:
                wanted = not self._closed.is_set() and self._workspaces.get(session_id) == place
                if wanted:
                    self._held[session_id] = _Held(sandbox, self.clock())
            if not wanted:  # stopped, or the backend closed, while it started: it must not outlive that
                sandbox.close()
                raise SandboxError(f"the sandbox of session {session_id} was stopped while it started")
            return sandbox

    def _new(self, place: Path) -> Sandbox:
        return self.pool.sandbox_for(place) if self.pool is not None else Sandbox(place, settings=self.settings)

    def _start(self, sandbox: Sandbox) -> Sandbox:
        try:
            if self.pool is not None:
                self.pool.start(sandbox)  # no more starts at once than cores
            else:
                sandbox.start()
        except BaseException:
            sandbox.close()
            raise
        return sandbox

    def _using(self, session_id: str) -> _Using:
        return _Using(self, session_id)


class _Using:
    """A call in a session's sandbox: the reaper leaves it alone until the call is over."""

    def __init__(self, backend: LocalBackend, session_id: str) -> None:
        self.backend = backend
        self.session_id = session_id
        self.entry: _Held | None = None

    def __enter__(self) -> Sandbox:
        backend = self.backend
        while True:
            sandbox = backend._sandbox(self.session_id)
            with backend._lock:
                entry = backend._held.get(self.session_id)
                if entry is not None and entry.sandbox is sandbox:  # not evicted in between
                    entry.active += 1
                    entry.used = backend.clock()
                    self.entry = entry
                    return sandbox

    def __exit__(self, *_: object) -> None:
        assert self.entry is not None
        with self.backend._lock:
            self.entry.active -= 1
            self.entry.used = self.backend.clock()

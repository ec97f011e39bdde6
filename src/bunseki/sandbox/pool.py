"""A few warm sandboxes, started ahead of time, each in a fresh workspace of its own.

A sandbox started on its own takes a second or two (the analysis stack is imported once per
worker). A pool forks its sandboxes from one `Zygote` that imported the stack once, so a start
costs milliseconds, and keeps ``BUNSEKI_SANDBOX_POOL_SIZE`` of them ready: a new session adopts
one and its workspace, and its replacement starts in the background. Starts, ahead of time or on
demand, never run more at once than there are cores.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import threading
import time
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bunseki.errors import SandboxError
from bunseki.sandbox import isolation
from bunseki.sandbox.inside import procs
from bunseki.sandbox.session import Sandbox
from bunseki.sandbox.workspace import new_workspace, remove_workspace
from bunseki.sandbox.zygote import Zygote
from bunseki.settings import Settings


@dataclass(frozen=True)
class PoolStats:
    """What the pool holds: ready sandboxes, starts under way, and the memory of the ready ones."""

    size: int
    ready: int
    starting: int
    worker_rss_bytes: int  # one idle warm worker (every process of it), resident
    worker_pss_bytes: int  # the same, shared pages divided among their sharers: its real cost
    pool_rss_bytes: int
    pool_pss_bytes: int


class SandboxPool:
    """Warm, not yet assigned sandboxes for new sessions under one workspace root."""

    def __init__(self, settings: Settings, size: int | None = None) -> None:
        self.settings = settings
        self.size = settings.sandbox_pool_size if size is None else size
        self._ready: deque[Sandbox] = deque()
        self._starting = 0
        self._closed = False
        self._lock = threading.Lock()
        self._starts = threading.BoundedSemaphore(os.cpu_count() or 1)
        self._executor = ThreadPoolExecutor(max_workers=max(1, min(self.size, os.cpu_count() or 1)))
        report = isolation.probe(settings)
        self.zygote = Zygote(settings, report) if report.tier and Zygote.supported(settings, report) else None
        self.failures: list[str] = []  # why background starts failed (the last few)

    def fill(self) -> None:
        """Start sandboxes in the background until the pool is full."""
        with self._lock:
            if self._closed:
                return
            missing = self.size - len(self._ready) - self._starting
            self._starting += max(0, missing)
        for _ in range(max(0, missing)):
            self._executor.submit(self._start_one)

    def take(self) -> Sandbox | None:
        """A ready sandbox (its workspace is the new session's), or None if none is ready yet."""
        with self._lock:
            sandbox = self._ready.popleft() if self._ready else None
        self.fill()
        if sandbox is not None and not sandbox.alive:  # died while waiting: not worth handing out
            sandbox.close()
            remove_workspace(sandbox.workspace)
            return None
        return sandbox

    def sandbox_for(self, workspace_dir: Path) -> Sandbox:
        """A sandbox (not started) for an existing workspace, forked from the zygote if it serves it."""
        return Sandbox(workspace_dir, settings=self.settings, zygote=self.zygote)

    def start(self, sandbox: Sandbox) -> None:
        """Start a sandbox on demand, under the same cap on concurrent starts as the pool's own."""
        with self._starts:
            sandbox.start()

    def ready_count(self) -> int:
        with self._lock:
            return len(self._ready)

    def stats(self) -> PoolStats:
        with self._lock:
            ready = list(self._ready)
            starting = self._starting
        sizes = [_memory(sandbox) for sandbox in ready]
        rss = [size[0] for size in sizes]
        pss = [size[1] for size in sizes]
        return PoolStats(
            size=self.size,
            ready=len(ready),
            starting=starting,
            worker_rss_bytes=max(rss, default=0),
            worker_pss_bytes=max(pss, default=0),
            pool_rss_bytes=sum(rss),
            pool_pss_bytes=sum(pss),
        )

    def close(self) -> None:
        """Stop the ready sandboxes and delete their (unused) workspaces."""
        with self._lock:
            self._closed = True
            ready, self._ready = list(self._ready), deque()
        self._executor.shutdown(wait=True, cancel_futures=True)
        for sandbox in ready:
            sandbox.close()
            remove_workspace(sandbox.workspace)
        if self.zygote is not None:
            self.zygote.close()

    def _start_one(self) -> None:
        sandbox: Sandbox | None = None
        try:
            sandbox = self.sandbox_for(new_workspace(self.settings.workspace_root))
            self.start(sandbox)
        except (SandboxError, OSError) as exc:
            self.failures = [*self.failures[-4:], f"{type(exc).__name__}: {exc}"]
            if sandbox is not None:
                remove_workspace(sandbox.workspace)
            sandbox = None
        with self._lock:
            self._starting -= 1
            if sandbox is not None and not self._closed:
                self._ready.append(sandbox)
                return
        if sandbox is not None:  # the pool closed meanwhile
            sandbox.close()
            remove_workspace(sandbox.workspace)


def measure(settings: Settings) -> dict[str, Any]:
    """What a server's warm pool costs here: its zygote and one idle worker, measured in a scratch root.

    RSS counts every page each process maps; PSS splits the shared ones among their sharers,
    which is what a worker really adds (its pages are the zygote's until written).
    """
    mb = 1024 * 1024
    scratch = Path(tempfile.mkdtemp(prefix="bunseki-measure-"))
    pool = SandboxPool(settings.model_copy(update={"workspace_root": scratch / "workspace"}), size=0)
    facts: dict[str, Any] = {"size": settings.sandbox_pool_size, "zygote": pool.zygote is not None}
    try:
        zygote_pid = pool.zygote.start() if pool.zygote is not None else None
        zygote = _tree_memory(zygote_pid) if zygote_pid is not None else (0, 0)
        sandbox = pool.sandbox_for(new_workspace(pool.settings.workspace_root))
        began = time.monotonic()
        pool.start(sandbox)
        start_s = time.monotonic() - began
        worker = _tree_memory(sandbox.pid) if sandbox.pid is not None else (0, 0)
        sandbox.close()
    except (SandboxError, OSError) as exc:
        return {**facts, "error": f"{type(exc).__name__}: {exc}"}
    finally:
        pool.close()
        shutil.rmtree(scratch, ignore_errors=True)
    return {
        **facts,
        "start_s": round(start_s, 3),
        "zygote_rss_mb": round(zygote[0] / mb, 1),
        "zygote_pss_mb": round(zygote[1] / mb, 1),
        "worker_rss_mb": round(worker[0] / mb, 1),
        "worker_pss_mb": round(worker[1] / mb, 1),
        "pool_pss_mb": round((zygote[1] + facts["size"] * worker[1]) / mb, 1),
        "error": None,
    }


def _memory(sandbox: Sandbox) -> tuple[int, int]:
    """Resident and proportional bytes of every process of a sandbox."""
    return _tree_memory(sandbox.pid) if sandbox.pid is not None else (0, 0)


def _tree_memory(pid: int) -> tuple[int, int]:
    tree = {pid, *procs.descendants(pid)}
    return sum(procs.resident_bytes(p) for p in tree), sum(_pss(p) for p in tree)


def _pss(pid: int) -> int:
    try:
        text = Path(f"/proc/{pid}/smaps_rollup").read_bytes()
    except OSError:
        return 0
    for line in text.splitlines():
        if line.startswith(b"Pss:"):
            return int(line.split()[1]) * 1024
    return 0

"""The Ray actor behind one session: the same local `Sandbox`, placed on a sandbox node, fenced.

`RayBackend` creates one detached named actor of this class per session. Its ``__init__`` runs at
every start and restart (Ray re-runs it on another node when the node dies): it takes a new fencing
epoch from the store, then starts the sandbox, which restores the state saved in the (shared)
workspace after the last committed cell. Before every call that can write state it checks that its
epoch is still the newest; an instance that finds a newer one (its replacement started elsewhere)
refuses, closes its sandbox and ends itself. Idle for ``session_idle_s``, it ends itself too; the
workspace keeps the state and the next call of the backend starts it again.

Calls run one at a time, in order, except ``abandon``, which has a concurrency group of its own
(`CONTROL`) so that it can stop the cell a replica that died left running.

Replies are small dicts: ``{"result": …}`` or ``{"refused": "fenced"|"evicted"|"stopped", …}``.
Only `bunseki.sandbox.ray_backend` imports this module (it imports ray).
"""

from __future__ import annotations

import os
import pickle
import stat
import threading
import time
from pathlib import Path
from typing import Any

import ray

from bunseki.domain import ExecutionResult
from bunseki.errors import ConfigurationError, SandboxError
from bunseki.sandbox import epochs
from bunseki.sandbox.inside import snapshot
from bunseki.sandbox.session import GRACE_S, Sandbox
from bunseki.settings import Settings
from bunseki.store import Store

LEAVE_DELAY_S = 0.5  # lets the refusing reply reach the caller before the actor ends itself
CONTROL = "control"  # the concurrency group of calls that must not wait behind a cell
CONCURRENCY_GROUPS = {CONTROL: 1}
ABANDON_WINDOW_S = 60.0  # how long a cell sent by an abandoned caller may still arrive and be refused


class SessionActor:
    """One session's sandbox inside a Ray actor (methods run one at a time, but for ``abandon``)."""

    def __init__(self, session_id: str, workspace: str, settings: dict[str, Any], database: str) -> None:
        # The settings come explicitly from the backend, already validated; nothing is read from this
        # worker's environment, which carries Ray's own variables.
        self.settings = Settings.model_construct(**settings)
        self.session_id = session_id
        self.store = Store(database, migrate=False)
        context = ray.get_runtime_context()
        self.node_id = context.get_node_id()
        self.reconstructed = context.was_current_actor_reconstructed
        self.epoch = self.store.take_epoch(session_id, f"{self.node_id}/{os.getpid()}")
        # The fencing token in the storage path: this instance saves only into its epoch's directory,
        # restored from the newest earlier one; what an older instance still saves is never read again.
        self.workspace = Path(workspace)
        self.own = epochs.open_epoch(self.workspace, self.epoch)
        epochs.prune(self.workspace, self.epoch, keep=() if self.own.source is None else (self.own.source,))
        self.closing: str | None = None
        self.lock = threading.RLock()
        self.running: str | None = None  # the process whose cell runs now
        self.running_lock = threading.Lock()  # so that abandon() never stops the next caller's cell
        # Callers abandoned before their cell began (caller -> when): a call sent just before its
        # process died can reach this actor after the abandon, and would otherwise run in full,
        # holding the session for the whole time limit.
        self.abandoned: dict[str, float] = {}
        self.sandbox = Sandbox(self.workspace, settings=self.settings, own_dir=self.own.directory)
        self.sandbox.start()  # restores the state saved after the last committed cell
        if self.sandbox.work_dir != self.sandbox.workspace:
            self.sandbox.close()
            raise ConfigurationError(
                f"The sandbox user cannot reach {workspace}, so its state would stay on this node "
                "and be lost with it: put BUNSEKI_WORKSPACE_ROOT on shared storage the sandbox user can reach."
            )
        self.last_call = time.monotonic()  # idle from when the sandbox is up: a slow start is not idleness
        threading.Thread(target=self._evict_when_idle, name="idle-eviction", daemon=True).start()

    # --- calls ---

    def info(self) -> dict[str, Any]:
        """Where and what this instance is; no state changes, so no fencing."""
        with self.lock:
            self.last_call = time.monotonic()
            return {
                "node_id": self.node_id,
                "pid": os.getpid(),
                "epoch": self.epoch,
                "workspace": str(self.sandbox.workspace),
                "sandbox_pid": self.sandbox.pid,
                "restored_cell": self.sandbox.ready.get("restored_cell", 0),
                "restored": list(self.sandbox.ready.get("restored", [])),
                "tier": self.sandbox.isolation.tier,
                "reconstructed": self.reconstructed,
                "closing": self.closing,
            }

    def execute(self, code: str, timeout: float | None, check_policy: bool, caller: str = "") -> dict[str, Any]:
        """Run one cell for ``caller`` (the calling process, `bunseki.owners.process_owner`)."""
        with self.lock:
            refused = self._refusal()
            if refused is not None:
                return refused
            with self.running_lock:
                if caller and time.monotonic() - self.abandoned.pop(caller, -ABANDON_WINDOW_S) < ABANDON_WINDOW_S:
                    return {"result": _abandoned_result(code).model_dump(mode="json")}
                self.running = caller or None
            try:
                result = self.sandbox.run(code, timeout=timeout, check_policy=check_policy)
            finally:
                with self.running_lock:
                    self.running = None
                self.last_call = time.monotonic()
            return {"result": result.model_dump(mode="json")}

    @ray.method(concurrency_group=CONTROL)
    def abandon(self, caller: str) -> bool:
        """Stop the cell under way if ``caller`` (a process now gone) asked for it; True if one was."""
        if not caller:
            return False
        with self.running_lock:
            if self.running == caller:
                return self.sandbox.interrupt()
            now = time.monotonic()  # its cell, should it arrive in the next moments, is not run
            self.abandoned = {name: at for name, at in self.abandoned.items() if now - at < ABANDON_WINDOW_S}
            self.abandoned[caller] = now
            return False

    def load_frame(self, path: str, name: str) -> dict[str, Any]:
        """Bind the frame the backend left at ``path`` (outside every workspace) to ``name``."""
        with self.lock:  # the backend removes the file afterwards (it may hand it to a new instance)
            refused = self._refusal()
            if refused is not None:
                return refused
            try:
                self.sandbox.load_frame(_read_transfer(Path(path)), name)
            finally:
                self.last_call = time.monotonic()
            return {"result": None}

    def reset(self) -> dict[str, Any]:
        """Forget the interpreter state, the saved one too: the next cell starts clean."""
        with self.lock:
            refused = self._refusal()
            if refused is not None:
                return refused
            self.sandbox.close()
            epochs.clear(self.own.directory)
            self.sandbox.start()
            self.last_call = time.monotonic()
            return {"result": None}

    def saved_cell(self) -> int:
        """The cell the newest committed state snapshot was taken after (-1: none yet)."""
        found = snapshot.current_manifest(str(epochs.state_dir(self.own.directory)))
        return -1 if found is None else int(found[1]["cell"])

    def shutdown(self) -> None:
        """End this session's actor for good, after any cell under way (its state stays)."""
        with self.lock:
            self._close("stopped")

    # --- fencing and the end ---

    def _refusal(self) -> dict[str, Any] | None:
        if self.closing is not None:
            return {"refused": self.closing}
        newest = self.store.current_epoch(self.session_id)
        if newest != self.epoch:
            self._close("fenced")
            return {
                "refused": "fenced",
                "message": f"epoch {self.epoch} of session {self.session_id} was superseded by epoch {newest}",
            }
        self.last_call = time.monotonic()
        return None

    def _close(self, why: str) -> None:
        """Stop the sandbox now; end the actor (never to be restarted) once this call has answered."""
        if self.closing is not None:
            return
        self.closing = why
        self.sandbox.close()
        self.store.close()
        threading.Thread(target=_leave, args=(LEAVE_DELAY_S,), name="leave", daemon=True).start()

    def _evict_when_idle(self) -> None:
        idle = self.settings.session_idle_s
        period = min(max(idle / 4, 0.2), 30.0)
        while True:
            time.sleep(period)
            with self.lock:
                if self.closing is not None:
                    return
                self._prune_source()
                if time.monotonic() - self.last_call >= idle:
                    self._close("evicted")
                    return

    def _prune_source(self) -> None:
        """Drop the directory we restored from once a save of our own is committed: until then the
        state we started from stays in its original place too (links cost no space)."""
        if self.own.source is not None and epochs.committed_own_save(self.own):
            epochs.prune(self.workspace, self.epoch)
            self.own = epochs.Opened(self.own.directory, None, self.own.restored_generation)


def actor_class() -> Any:
    """`SessionActor` as a Ray actor class, with its concurrency groups (which ``.options()`` cannot take)."""
    remote: Any = ray.remote  # its typed overloads do not list concurrency_groups
    return remote(concurrency_groups=CONCURRENCY_GROUPS)(SessionActor)


def _leave(delay: float) -> None:
    time.sleep(delay)
    ray.kill(ray.get_runtime_context().current_actor, no_restart=True)


def _abandoned_result(code: str) -> ExecutionResult:
    return ExecutionResult(
        success=False,
        code=code,
        error="Interrupted: The cell was not run: the question it was sent for had been abandoned.\n",
        error_type="Interrupted",
    )


def _read_transfer(path: Path) -> Any:
    """Read the backend's frame file: ours only (same uid, not writable by others, no link)."""
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    except OSError as exc:
        raise SandboxError(f"the frame to load is not at {path}: {exc}") from exc
    with os.fdopen(descriptor, "rb") as handle:
        info = os.fstat(handle.fileno())
        if info.st_uid != os.geteuid() or info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
            raise SandboxError(f"refusing to load {path}: it is not the backend's own file")
        return pickle.load(handle)  # noqa: S301 (the backend wrote it a moment ago; no sandbox can reach it)


def call_timeout(settings: Settings, timeout: float | None) -> float:
    """How long the backend waits for a cell's reply: the sandbox's own bound twice (a call of another
    replica may run first: the actor takes one at a time), and room."""
    return 2 * ((timeout or settings.sandbox_timeout_s) + GRACE_S) + 30.0

"""`RayBackend`: every session's sandbox in one detached, named Ray actor on a sandbox node.

Whichever API replica gets a request finds or creates the session's actor atomically by name
(``session-<id>`` in ``BUNSEKI_RAY_NAMESPACE``); it runs only on nodes that advertise the custom
resource ``bunseki_sandbox`` (one unit per session), spread over them. The actor wraps the local
`Sandbox` unchanged (see `ray_actor`). Calls are at most once: a cell in flight when its node dies
raises `SandboxLost` and is never retried; the next call waits (bounded) while Ray restarts the actor
on another node, where it restores the state committed in the shared workspace.

Ray reads ``RAY_AUTH_TOKEN`` from the environment; when it is set, token authentication is switched
on for this process (``RAY_AUTH_MODE=token``) so that the driver presents it. Only this module and
`ray_actor` import ray, and nothing imports them unless ``BUNSEKI_SANDBOX_BACKEND=ray``.
"""

from __future__ import annotations

import importlib
import logging
import os
import pickle
import threading
import time
import uuid
from pathlib import Path
from typing import TYPE_CHECKING, Any

import ray
from ray.exceptions import ActorUnavailableError, GetTimeoutError, RayActorError

from bunseki.domain import ExecutionResult
from bunseki.errors import ConfigurationError, SandboxError, SandboxFenced, SandboxLost, SandboxStartError
from bunseki.owners import process_of, process_owner
from bunseki.sandbox.backend import BackendHealth
from bunseki.sandbox.ray_actor import actor_class, call_timeout
from bunseki.sandbox.workspace import new_workspace
from bunseki.settings import Settings
from bunseki.store import Store

if TYPE_CHECKING:
    import pandas as pd

Handle = Any  # a ray.actor.Handle: Ray's typing of actor methods does not reach their results

RESOURCE = "bunseki_sandbox"
RESTART_WAIT_S = 60.0  # how long the next call waits for a session whose node died
START_WAIT_S = 300.0  # a new actor may queue behind others: a node starts its workers a few at a time
SMALL_CALL_S = 120.0
TRANSFER = ".bunseki-transfer"  # under the workspace root, beside (not in) the workspaces: no sandbox sees it
ACTOR_SETTINGS = ("open_sessions", "session_idle_s", "workspace_root")
_connect_lock = threading.Lock()


def actor_name(session_id: str) -> str:
    return f"session-{session_id}"


class RayBackend:
    """SandboxBackend over a Ray cluster (BUNSEKI_SANDBOX_BACKEND=ray)."""

    name = "ray"

    def __init__(self, settings: Settings, *, restart_wait_s: float = RESTART_WAIT_S) -> None:
        if not settings.ray_address:
            raise ConfigurationError(
                "BUNSEKI_SANDBOX_BACKEND=ray needs the cluster's address: set BUNSEKI_RAY_ADDRESS=host:port "
                "(the Ray head). / Ray バックエンドにはクラスタのアドレスが必要です: "
                "BUNSEKI_RAY_ADDRESS を設定してください。"
            )
        self.settings = settings
        self.restart_wait_s = restart_wait_s
        self._handles: dict[str, Handle] = {}
        self._workspaces: dict[str, Path] = {}
        self._suspect: set[str] = set()  # sessions whose last call failed: wait until they answer again
        self._actor_class: Any = None
        self._me = (0, "")  # (pid, process_owner()) of the process these calls come from

    # --- the protocol ---

    def new_workspace(self) -> Path:
        """A fresh workspace under the shared root (no warm pool: the actor starts where Ray places it)."""
        return new_workspace(self.settings.workspace_root)

    def ensure(self, session_id: str, workspace: Path) -> None:
        self._workspaces[session_id] = Path(workspace).resolve()
        # A handle held here is asked directly (one call); one that ended is found or created again
        # by _wait_ready, so the cluster's name registry is asked only the first time or on failure.
        handle = self._handles.get(session_id) or self._create(session_id)
        self._wait_ready(session_id, handle, START_WAIT_S)

    def execute(
        self, session_id: str, code: str, *, timeout: float | None = None, check_policy: bool = True
    ) -> ExecutionResult:
        wait = call_timeout(self.settings, timeout)
        reply = self._call(session_id, "execute", (code, timeout, check_policy, self._caller()), wait)
        return ExecutionResult.model_validate(reply["result"])

    def abandon(self, session_id: str, caller: str) -> bool:
        """Stop the cell a replica that is gone left running in the session's actor (another replica's
        next call would wait behind it until its time limit). Never starts an actor."""
        self._connect()
        handle = self._handles.get(session_id) or self._lookup(session_id)
        if handle is None:
            return False
        try:
            return bool(_get(handle.abandon.remote(process_of(caller)), timeout=SMALL_CALL_S))
        except (RayActorError, GetTimeoutError):
            return False  # gone or restarting: nothing of the caller runs there any more

    def load_frame(self, session_id: str, frame: pd.DataFrame, name: str = "df") -> None:
        if not name.isidentifier():
            raise ValueError(f"{name!r} is not a valid Python name")
        self._connect()
        path = self._transfer_dir() / f"{uuid.uuid4().hex}-{name}.pkl"
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            with os.fdopen(descriptor, "wb") as handle:
                pickle.dump(frame, handle, protocol=pickle.HIGHEST_PROTOCOL)
            self._call(session_id, "load_frame", (str(path), name), SMALL_CALL_S)
        finally:
            path.unlink(missing_ok=True)

    def reset(self, session_id: str) -> None:
        self._call(session_id, "reset", (), SMALL_CALL_S)

    def stop(self, session_id: str) -> None:
        self._connect()
        self._workspaces.pop(session_id, None)
        self._suspect.discard(session_id)
        handle = self._handles.pop(session_id, None) or self._lookup(session_id)
        if handle is None:
            return
        try:  # politely, after any cell under way; then for sure
            _get(handle.shutdown.remote(), timeout=call_timeout(self.settings, None))
        except (RayActorError, GetTimeoutError):
            pass
        ray.kill(handle, no_restart=True)
        deadline = time.monotonic() + 30
        while self._same_actor(session_id, handle) and time.monotonic() < deadline:
            time.sleep(0.05)

    def release(self, session_id: str) -> None:
        """Forget this process's handle; the actor stays for other replicas until idle eviction ends it."""
        self._handles.pop(session_id, None)
        self._workspaces.pop(session_id, None)
        self._suspect.discard(session_id)

    def close(self) -> None:
        """Disconnect this replica; the session actors keep running (their sessions may be in use elsewhere)."""
        self._handles.clear()
        self._workspaces.clear()
        self._suspect.clear()

    def health(self) -> BackendHealth:
        try:
            self._connect()
            named = ray.util.list_named_actors(all_namespaces=True)
            every: list[dict[str, Any]] = ray.nodes()  # type: ignore[no-untyped-call]
            nodes = [node for node in every if node.get("Alive") and RESOURCE in node.get("Resources", {})]
        except Exception as exc:  # a health report says what is wrong rather than failing
            return BackendHealth(backend="ray", ok=False, sessions=0, detail={"error": str(exc)[:300]})
        sessions = [
            entry
            for entry in named
            if entry["namespace"] == self.settings.ray_namespace and entry["name"].startswith("session-")
        ]
        slots = sum(node["Resources"][RESOURCE] for node in nodes)
        return BackendHealth(
            backend="ray",
            ok=bool(nodes),
            sessions=len(sessions),
            detail={
                "address": str(self.settings.ray_address),
                "namespace": self.settings.ray_namespace,
                "sandbox_nodes": len(nodes),
                "sandbox_slots": slots,
            },
        )

    # --- for tests and operators ---

    def info(self, session_id: str) -> dict[str, Any]:
        """The session actor's node, pid, epoch and restored state (waits while it restarts)."""
        return self._wait_ready(session_id, self._handle(session_id))

    def saved_cell(self, session_id: str) -> int:
        """The cell after which the session's state was last committed to the workspace."""
        return int(_get(self._handle(session_id).saved_cell.remote(), timeout=SMALL_CALL_S))

    # --- actors ---

    def _connect(self) -> None:
        with _connect_lock:
            if self._actor_class is not None:
                return
            if not ray.is_initialized():
                _token_auth_from_environment()
                ray.init(
                    address=self.settings.ray_address,
                    namespace=self.settings.ray_namespace,
                    log_to_driver=False,
                    logging_level=logging.WARNING,
                )
            Store(self.settings.database).close()  # the fencing table exists before any actor needs it
            self._actor_class = actor_class()

    def _create(self, session_id: str) -> Handle:
        """Find the session's actor, or create it: atomic across replicas (get_if_exists)."""
        self._connect()
        workspace = self._workspaces.get(session_id)
        if workspace is None:
            raise SandboxError(f"session {session_id} has no sandbox on the cluster; start it first (ensure)")
        values = self.settings.model_dump(include=_actor_setting_names(self.settings))
        handle: Handle = self._actor_class.options(
            name=actor_name(session_id),
            namespace=self.settings.ray_namespace,
            get_if_exists=True,
            lifetime="detached",
            num_cpus=0,
            resources={RESOURCE: 1},
            scheduling_strategy="SPREAD",
            max_restarts=-1,
            max_task_retries=0,
        ).remote(session_id, str(workspace), values, self.settings.database)
        self._handles[session_id] = handle
        return handle

    def _lookup(self, session_id: str) -> Handle | None:
        try:
            return ray.get_actor(actor_name(session_id), namespace=self.settings.ray_namespace)
        except ValueError:  # no live actor of that name
            return None

    def _handle(self, session_id: str) -> Handle:
        """The session's actor: known here, or started by another replica (found by name)."""
        self._connect()
        handle = self._handles.get(session_id) or self._lookup(session_id)
        if handle is None:
            if session_id in self._workspaces:  # evicted or stopped since: start it again
                return self._create(session_id)
            raise SandboxError(f"session {session_id} has no sandbox on the cluster; start it first (ensure)")
        self._handles[session_id] = handle
        return handle

    def _same_actor(self, session_id: str, handle: Handle) -> bool:
        """Whether ``handle`` is still the session's live actor (a restart keeps its id; a new one has another)."""
        current = self._lookup(session_id)
        return current is not None and current._actor_id == handle._actor_id

    def _wait_ready(self, session_id: str, handle: Handle, bound_s: float | None = None) -> dict[str, Any]:
        """Ask the actor who it is until it answers: while it starts (queued behind others on a busy
        node) or restarts on another node; within ``bound_s`` (default: the restart wait)."""
        bound_s = self.restart_wait_s if bound_s is None else bound_s
        deadline = time.monotonic() + bound_s
        pause = 0.05
        asked: Any = None  # the pending question: asked once, waited for across timeouts
        while True:
            asked = asked if asked is not None else handle.info.remote()
            try:
                info: dict[str, Any] = _get(asked, timeout=max(0.1, min(deadline - time.monotonic(), 10.0)))
            except GetTimeoutError:  # still starting: keep waiting for the same answer
                pass
            except ActorUnavailableError:  # restarting (its node died): ask again soon
                asked = None
            except RayActorError as exc:
                asked = None
                if getattr(exc, "actor_init_failed", False):
                    self._handles.pop(session_id, None)
                    raise SandboxStartError(f"the sandbox of session {session_id} did not start: {exc}") from exc
                if not self._same_actor(session_id, handle):  # ended on purpose (evicted, fenced, stopped)
                    self._handles.pop(session_id, None)
                    handle = self._handle(session_id)
            else:
                if info.get("closing") is None:
                    self._suspect.discard(session_id)
                    self._workspaces.setdefault(session_id, Path(info["workspace"]))
                    return info
                asked = None
                self._handles.pop(session_id, None)  # on its way out: wait for it to go, then start anew
                self._wait_gone(session_id, handle)
                handle = self._handle(session_id)
                continue
            if time.monotonic() > deadline:
                raise SandboxStartError(
                    f"the sandbox of session {session_id} did not answer within {bound_s:g} s (starting, or "
                    "restarting after its node was lost); try again in a moment"
                )
            if asked is None:
                time.sleep(pause)
                pause = min(pause * 2, 2.0)

    def _call(self, session_id: str, method: str, args: tuple[Any, ...], wait: float) -> dict[str, Any]:
        """One at-most-once call; a refusal by an instance on its way out is started again once."""
        for _ in range(3):
            handle = self._handle(session_id)
            if session_id in self._suspect:
                self._wait_ready(session_id, handle)
            try:
                reply: dict[str, Any] = _get(getattr(handle, method).remote(*args), timeout=wait)
            except (RayActorError, GetTimeoutError) as exc:
                if isinstance(exc, RayActorError) and not self._same_actor(session_id, handle):
                    # ended on purpose while idle (evicted, stopped): the call never ran in it
                    self._handles.pop(session_id, None)
                    continue
                self._suspect.add(session_id)
                raise SandboxLost(_LOST) from exc
            refused = reply.get("refused")
            if refused is None:
                return reply
            self._handles.pop(session_id, None)
            if refused == "fenced":
                raise SandboxFenced(f"{_FENCED} ({reply.get('message')})")
            self._wait_gone(session_id, handle)
        raise SandboxError(f"the sandbox of session {session_id} kept ending while called; try again")

    def _caller(self) -> str:
        """This process, as `abandon` names it (computed per call: a forked child is another process)."""
        if self._me[0] != os.getpid():
            self._me = (os.getpid(), process_owner())
        return self._me[1]

    def _wait_gone(self, session_id: str, handle: Handle) -> None:
        deadline = time.monotonic() + 30
        while self._same_actor(session_id, handle) and time.monotonic() < deadline:
            time.sleep(0.05)

    def _transfer_dir(self) -> Path:
        directory = (self.settings.workspace_root / TRANSFER).resolve()
        directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        return directory


def _get(reference: Any, timeout: float) -> Any:
    return ray.get(reference, timeout=timeout)


_LOST = " ".join((SandboxLost.__doc__ or "").split())
_FENCED = " ".join((SandboxFenced.__doc__ or "").split())


def _actor_setting_names(settings: Settings) -> set[str]:
    """What the sandbox needs (isolation, limits, idle time, where workspaces live); never keys or URLs."""
    names = {name for name in type(settings).model_fields if name.startswith("sandbox_")}
    return (names - {"sandbox_backend"}) | set(ACTOR_SETTINGS)


def _token_auth_from_environment() -> None:
    """Present RAY_AUTH_TOKEN to the cluster: Ray sends it only in token mode, which it reads from the env."""
    if os.environ.get("RAY_AUTH_TOKEN") and not os.environ.get("RAY_AUTH_MODE"):
        raylet: Any = importlib.import_module("ray._raylet")  # not in Ray's type stubs
        os.environ["RAY_AUTH_MODE"] = "token"
        raylet.Config.initialize("")  # Ray read its configuration at import: read it again (as `ray start` does)
        raylet.AuthenticationTokenLoader.instance().reset_cache()

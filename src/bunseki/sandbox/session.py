"""`Sandbox`: one session's warm, isolated Python worker, seen from the controller.

The worker keeps the namespace (``df`` and whatever cells define) between cells. Each call to
`Sandbox.run` always returns: if the worker stops answering, it is killed after the cell's time
limit plus a grace period, started again, and reloads the state saved after the last
successful cell.
"""

from __future__ import annotations

import itertools
import json
import os
import pickle
import selectors
import signal
import subprocess
import threading
import time
import weakref
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bunseki.domain import ExecutionResult, TableResult
from bunseki.errors import SandboxError, SandboxStartError
from bunseki.sandbox import isolation, policy, staging, workspace
from bunseki.sandbox.inside import procs, protocol
from bunseki.sandbox.models import IsolationReport, Limits
from bunseki.sandbox.zygote import WorkerProcess, Zygote
from bunseki.settings import Settings

if TYPE_CHECKING:
    import pandas as pd

START_TIMEOUT_S = 60.0
GRACE_S = 10.0
SMALL_OP_TIMEOUT_S = 120.0
TASKS_AT_REST = 8  # processes of an idle sandbox, with room to spare


class Sandbox:
    """A warm, isolated worker bound to one workspace.

    >>> with Sandbox(workspace_dir) as box:
    ...     box.load_frame(frame)
    ...     result = box.run("df.describe()")
    """

    def __init__(
        self,
        workspace_dir: Path,
        *,
        settings: Settings | None = None,
        limits: Limits | None = None,
        isolation_report: IsolationReport | None = None,
        zygote: Zygote | None = None,
        own_dir: Path | None = None,
    ) -> None:
        """``zygote``: fork the worker from this warm parent when it serves the workspace.

        ``own_dir``: a directory under the workspace that alone receives this instance's saved state
        and inputs (the Ray backend's epoch directory, see `epochs`); under bubblewrap the worker sees
        its parent read-only, so it cannot write another instance's. Default: ``.bunseki/``.
        """
        self.settings = settings or Settings()
        self.workspace = Path(workspace_dir).resolve()
        self.own = (
            Path(own_dir).resolve().relative_to(self.workspace) if own_dir is not None else Path(workspace.INTERNAL)
        )
        self.limits = limits or Limits.from_settings(self.settings)
        self.isolation = isolation_report or isolation.require(self.settings)
        self.zygote = zygote if zygote is not None and zygote.covers(self.workspace) else None
        # Where the worker works (a working copy for Landlock when the sandbox user cannot reach
        # the workspace) and that directory's path as the worker sees it.
        self.work_dir = self.workspace
        self.inner = (
            self.zygote.inner(self.workspace)
            if self.zygote
            else isolation.inner_workspace(self.isolation, self.workspace)
        )
        self.restarts = 0
        self.ready: dict[str, Any] = {}
        self.started_s: float | None = None
        self._process: subprocess.Popen[bytes] | WorkerProcess | None = None
        self._req: int | None = None
        self._resp: int | None = None
        self._frames = protocol.FrameBuffer()
        self._ids = itertools.count(1)
        self._lock = threading.RLock()
        self._running: subprocess.Popen[bytes] | WorkerProcess | None = None  # the worker of the cell under way
        self._interrupted = False  # interrupt() ended the cell under way
        self._finalizer: weakref.finalize[Any, Sandbox] | None = None

    # --- life cycle ---

    def __enter__(self) -> Sandbox:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def pid(self) -> int | None:
        """The worker's outermost process (bubblewrap's, the reaper's, or a zygote fork's anchor), while it runs."""
        return self._process.pid if self.alive and self._process is not None else None

    @property
    def alive(self) -> bool:
        return self._process is not None and self._process.poll() is None

    def start(self) -> dict[str, Any]:
        """Start the worker and wait until it is ready; returns what it reported."""
        with self._lock:
            if not self.alive:
                self._spawn()
            return self.ready

    def _spawn(self) -> None:
        began = time.monotonic()
        uid = self.isolation.run_as_uid
        log = workspace.prepare(self.workspace, owner=uid)
        interpreter = isolation.Interpreter.current()
        if self.isolation.tier != "bwrap" and uid != os.geteuid() and self.zygote is None:
            log, interpreter = self._reachable_copies(uid, log, interpreter)
        if self.own != Path(workspace.INTERNAL):  # prepare() made the default's, and handed them over
            self._own_dirs(uid)
        req_r, req_w = os.pipe()
        resp_r, resp_w = os.pipe()
        config = {
            "req_fd": req_r,
            "resp_fd": resp_w,
            "workspace": self.inner,
            "state_dir": str(Path(self.inner) / self.own / "state"),
            "figure_dir": str(self._figure_dir(Path(self.inner))),
            "tier": self.isolation.tier,
            "seccomp": self.isolation.seccomp,
            "landlock_rules": isolation.landlock_rules([self.inner], interpreter),
            "tasks_base": self._tasks_base(),
            "limits": self.limits.model_dump(),
        }
        try:
            if self.zygote is not None:  # a fork of a warm parent: milliseconds, not seconds
                config.update(landlock_layer=True, env=isolation.sandbox_env(Path(self.inner)))
                config["log"] = str(workspace.internal(Path(self.inner), "worker.log"))
                self._process = self.zygote.spawn(config, [req_r, resp_w])
            else:
                self._process = self._launch(config, interpreter, log, [req_r, resp_w])
        finally:
            os.close(req_r)
            os.close(resp_w)
        self._req, self._resp = req_w, resp_r
        os.set_blocking(resp_r, False)
        self._frames = protocol.FrameBuffer()
        if self._finalizer is None:
            self._finalizer = weakref.finalize(self, _terminate, self._process, self.isolation.tier)
        ready = self._receive(None, time.monotonic() + START_TIMEOUT_S)
        if ready is None or ready.get("event") != "ready":
            reason = (ready or {}).get("error") or _tail(log)
            self._kill()
            raise SandboxStartError(f"the sandbox worker did not start: {reason}")
        self.ready = ready
        self.started_s = time.monotonic() - began

    def _figure_dir(self, root: Path) -> Path:
        """Where the worker saves the charts cells leave open: ``figures/``, or for an instance with a
        directory of its own (an epoch), ``figures/<that name>/``, so that a late cell of a fenced-off
        instance never overwrites the chart its replacement saved for the same cell number."""
        default = Path(workspace.INTERNAL)
        return root / "figures" if self.own == default else root / "figures" / self.own.name

    def _own_dirs(self, uid: int) -> None:
        for name in ("state", "inputs"):
            place = self.work_dir / self.own / name
            place.mkdir(parents=True, exist_ok=True)
            if uid != os.geteuid():
                os.chown(place.parent, uid, uid)
                os.chown(place, uid, uid)

    def _launch(
        self, config: dict[str, Any], interpreter: isolation.Interpreter, log: Path, fds: list[int]
    ) -> subprocess.Popen[bytes]:
        private = None if self.own == Path(workspace.INTERNAL) else str(self.own)
        launch = isolation.build_launch(
            self.isolation, self.work_dir, json.dumps(config), fds, interpreter, private=private
        )
        with log.open("ab") as log_file:
            return launch.start(self.work_dir, log_file, "worker")

    def _reachable_copies(
        self, uid: int, log: Path, interpreter: isolation.Interpreter
    ) -> tuple[Path, isolation.Interpreter]:
        """Landlock as root: work where the sandbox user can reach, when it cannot reach ours."""
        try:
            if not staging.reachable(self.workspace, uid):
                self.work_dir = staging.session_dir(self.workspace, uid)
                self.inner = str(self.work_dir)
                log = workspace.prepare(self.work_dir, owner=uid)
                self.work_dir.chmod(0o700)
                staging.sync_inputs(self.workspace, self.work_dir)
            moved = staging.python(interpreter.installations(), uid)
            inside = interpreter.inside if staging.reachable(interpreter.inside, uid) else None
            if moved or inside is None:
                interpreter = interpreter.moved(moved, inside or staging.code(interpreter.inside, uid))
        except OSError as exc:
            raise SandboxStartError(f"could not prepare a place the sandbox user (uid {uid}) can reach: {exc}") from exc
        return log, interpreter

    def _tasks_base(self) -> int:
        """Processes the sandbox uid may already run before this sandbox's own allowance.

        Only an unprivileged bubblewrap has a user namespace of its own to count in. Elsewhere
        RLIMIT_NPROC counts every process of the uid, those of sandboxes that start later too,
        so room is kept for theirs at rest (anchor, holder, spare, saver).
        """
        uid = self.isolation.run_as_uid
        if uid == os.geteuid():  # a user's own processes: their own bubblewrap, or as before
            # plus this sandbox's reaper, which starts after this count
            return 0 if self.isolation.tier == "bwrap" else _tasks_of(uid) + 1
        others = self.settings.open_sessions + self.settings.sandbox_pool_size
        return _tasks_of(uid) + others * TASKS_AT_REST

    def close(self) -> None:
        """Stop the worker (politely, then by force). The workspace and its state stay."""
        with self._lock:
            if self.alive and self._req is not None:
                try:
                    protocol.send(self._req, {"op": "shutdown"})
                    assert self._process is not None
                    self._process.wait(timeout=2)
                except (OSError, subprocess.TimeoutExpired):
                    pass
            self._kill()

    def _kill(self) -> None:
        if self._process is not None:
            _terminate(self._process, self.isolation.tier)
        for fd in (self._req, self._resp):
            if fd is not None:
                os.close(fd)
        self._req = self._resp = None
        self._process = None

    def interrupt(self) -> bool:
        """End the cell under way now, as its time limit would: the worker is killed, and the call that
        ran the cell restarts it from the state saved after the last finished cell. True if a worker
        was running. Called from another thread (the running cell holds the lock, so this does not take it)."""
        process = self._running
        if process is None or process.poll() is not None:
            return False
        self._interrupted = True
        _terminate(process, self.isolation.tier)
        return True

    def _restart(self) -> None:
        self._kill()
        self.restarts += 1
        self._spawn()

    # --- data in ---

    def load_frame(self, frame: pd.DataFrame, name: str = "df") -> None:
        """Bind ``frame`` to ``name`` in the worker's namespace (and in its saved state)."""
        if not name.isidentifier():
            raise ValueError(f"{name!r} is not a valid Python name")
        self._sync_inputs()
        path = self.work_dir / self.own / "inputs" / f"{name}.pkl"
        with path.open("wb") as handle:
            pickle.dump(frame, handle, protocol=pickle.HIGHEST_PROTOCOL)
        if self.isolation.run_as_uid != os.geteuid():
            os.chown(path, self.isolation.run_as_uid, self.isolation.run_as_uid)
        inner_path = Path(self.inner) / self.own / "inputs" / path.name
        reply = self._request({"op": "load", "name": name, "path": str(inner_path)}, SMALL_OP_TIMEOUT_S)
        if not reply.get("ok"):
            raise SandboxError(f"could not load {name} into the sandbox: {reply.get('error')}")

    def variables(self) -> dict[str, Any]:
        """The names cells have defined, with type and shape."""
        return dict(self._request({"op": "inspect"}, SMALL_OP_TIMEOUT_S).get("variables", {}))

    def _request(self, message: dict[str, Any], timeout: float) -> dict[str, Any]:
        with self._lock:
            self.start()
            reply = self._exchange(message, time.monotonic() + timeout)
            if reply is None:
                self._restart()
                raise SandboxError(f"the sandbox did not answer {message['op']!r}; it was restarted")
            return reply

    # --- cells ---

    def run(self, code: str, *, timeout: float | None = None, check_policy: bool = True) -> ExecutionResult:
        """Run one cell. Never raises for anything the cell does; the result says what happened."""
        began = time.monotonic()
        refused = self._refuse(code, check_policy)
        if refused is not None:
            return refused
        limits = self.limits if timeout is None else self.limits.model_copy(update={"timeout_s": timeout})
        with self._lock:
            self.start()
            self._sync_inputs()
            message = {"op": "run", "code": code, "limits": limits.model_dump()}
            self._interrupted, self._running = False, self._process
            try:
                reply = self._exchange(message, time.monotonic() + limits.timeout_s + GRACE_S)
            finally:
                self._running = None
            if reply is not None:
                if self.work_dir != self.workspace:
                    staging.copy_back(
                        self.work_dir, self.workspace, [item["path"] for item in reply.get("artifacts", [])]
                    )
                return _to_result(code, reply, self.workspace)
            timed_out = time.monotonic() - began >= limits.timeout_s
            interrupted = self._interrupted
            self._restart()
        restored = self.ready.get("restored_cell", 0)
        kind = "TimeLimitExceeded" if timed_out else "Interrupted" if interrupted else "SandboxRestarted"
        what = {
            "TimeLimitExceeded": f"The cell did not finish within the {limits.timeout_s:g} s time limit",
            "Interrupted": "The cell was stopped: the question it ran for was abandoned",
            "SandboxRestarted": "The sandbox worker died while running the cell",
        }[kind]
        message_text = f"{what}; the worker was restarted and the state saved after cell {restored} was restored."
        return ExecutionResult(
            success=False,
            code=code,
            stdout="",
            error=f"{kind}: {message_text}\n",
            error_type=kind,
            limit="wall_time" if timed_out else None,
            duration_s=time.monotonic() - began,
            restarted=True,
            notes=_lost_note(self.ready),
        )

    def _sync_inputs(self) -> None:
        if self.work_dir != self.workspace:  # the host may have added data or snapshots since
            staging.sync_inputs(self.workspace, self.work_dir)

    def _refuse(self, code: str, check_policy: bool) -> ExecutionResult | None:
        syntax = policy.syntax_error(code)
        if syntax is not None:
            return ExecutionResult(success=False, code=code, stdout="", error=syntax, error_type="SyntaxError")
        if not check_policy:
            return None
        violations = policy.check(code, self.inner)
        if not violations:
            return None
        return ExecutionResult(
            success=False,
            code=code,
            stdout="",
            error=policy.explain(violations),
            error_type="PolicyViolation",
        )

    # --- the pipe ---

    def _exchange(self, message: dict[str, Any], deadline: float) -> dict[str, Any] | None:
        """Send a request and wait for its reply; None if the worker died or ran out of time."""
        assert self._req is not None
        message_id = next(self._ids)
        try:
            protocol.send(self._req, {**message, "id": message_id})
        except OSError:
            return None
        return self._receive(message_id, deadline)

    def _receive(self, message_id: int | None, deadline: float) -> dict[str, Any] | None:
        assert self._resp is not None
        with selectors.DefaultSelector() as selector:
            selector.register(self._resp, selectors.EVENT_READ)
            while (remaining := deadline - time.monotonic()) > 0:
                if not selector.select(remaining):
                    continue
                try:
                    data = os.read(self._resp, 1 << 20)
                except BlockingIOError:
                    continue
                if not data:
                    return None
                try:
                    messages = self._frames.feed(data)
                except protocol.ProtocolError:
                    return None
                for reply in messages:
                    if message_id is None or reply.get("id") == message_id:
                        return reply
        return None


def _to_result(code: str, reply: dict[str, Any], workspace_dir: Path) -> ExecutionResult:
    error = reply.get("error")
    if isinstance(error, str):  # a failure of the worker machinery rather than of the cell
        error = {"type": "SandboxError", "traceback": f"SandboxError: {error}\n"}
    return ExecutionResult(
        success=bool(reply.get("success")),
        code=code,
        stdout=reply.get("stdout", ""),
        stderr=reply.get("stderr", ""),
        error=error["traceback"] if error else None,
        error_type=error["type"] if error else None,
        limit=reply.get("limit"),
        artifacts=[workspace_dir / item["path"] for item in reply.get("artifacts", [])],
        tables=[TableResult.model_validate(table) for table in reply.get("tables", [])],
        duration_s=float(reply.get("duration_s") or 0.0),
        cell=reply.get("cell"),
        notes=list(reply.get("notes", [])),
    )


def _lost_note(ready: dict[str, Any]) -> list[str]:
    lost = ready.get("lost") or []
    return [f"Not restored after the restart (they cannot be saved): {', '.join(lost)}."] if lost else []


def _terminate(process: subprocess.Popen[bytes] | WorkerProcess, tier: str | None) -> None:
    """Kill a worker and everything below it, whatever it did to escape its process group."""
    if process.poll() is None:
        if tier == "bwrap" and not isinstance(process, WorkerProcess):
            # bwrap's PID namespace ends every process in it when its init dies.
            _signal_group(process.pid, signal.SIGKILL)
        else:
            _kill_tree(process.pid)
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        pass


def _kill_tree(root: int) -> None:
    """Stop the whole tree first (so nothing forks or reparents away), then kill it."""
    stopped: set[int] = set()
    for _ in range(20):
        tree = (procs.descendants(root) | {root}) - stopped
        if not tree:
            break
        for pid in tree:
            _signal(pid, signal.SIGSTOP)
        stopped |= tree
    for pid in stopped:
        _signal(pid, signal.SIGKILL)


def _signal(pid: int, number: int) -> None:
    try:
        os.kill(pid, number)
    except (ProcessLookupError, PermissionError):
        pass


def _signal_group(pgid: int, number: int) -> None:
    try:
        os.killpg(pgid, number)
    except (ProcessLookupError, PermissionError):
        pass


def _tasks_of(uid: int) -> int:
    """How many tasks (threads count) ``uid`` already runs: RLIMIT_NPROC counts them all."""
    count = 0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/status", "rb") as handle:
                fields = dict(line.split(b":", 1) for line in handle if b":" in line)
        except OSError:
            continue
        if int(fields.get(b"Uid", b"-1 ").split()[0]) == uid:
            count += int(fields.get(b"Threads", b"1").strip())
    return count


def _tail(log: Path, size: int = 2000) -> str:
    try:
        return log.read_bytes()[-size:].decode("utf-8", "replace").strip() or "no output"
    except OSError:
        return "no log"

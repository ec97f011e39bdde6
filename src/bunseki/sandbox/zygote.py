"""The controller's side of the zygote (see ``inside/zygote.py``): sandboxes started by a fork.

A `Zygote` serves the workspaces directly under one workspace root. It is itself confined like
a sandbox (bubblewrap, or Landlock + seccomp) and sees that root and nothing of the host beyond
what a worker sees; each worker it forks adds a Landlock layer of its own that reaches only its
workspace. Between sessions, that layer (and its scoping of signals and abstract sockets, Landlock
ABI 6) is the wall; so a zygote is only used where the kernel has it and seccomp is on, and
only when Bunseki runs as root (the sandbox uid then owns neither data/ nor snapshots/).
Elsewhere, and for workspaces outside its root, each sandbox is started on its own as before.
"""

from __future__ import annotations

import json
import os
import select
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
from pathlib import Path
from typing import Any

from bunseki.errors import SandboxStartError
from bunseki.sandbox import isolation, staging, workspace
from bunseki.sandbox.inside import landlock
from bunseki.sandbox.models import IsolationReport
from bunseki.settings import Settings

START_TIMEOUT_S = 60.0
SPAWN_TIMEOUT_S = 20.0
MIN_LANDLOCK_ABI = 6  # signals and abstract Unix sockets scoped to the worker's own domain


class WorkerProcess:
    """A worker forked by the zygote, followed through a pidfd (it is not our child)."""

    def __init__(self, pidfd: int) -> None:
        self.pidfd = pidfd
        self.pid = _pid_of(pidfd)
        self.returncode: int | None = None

    def poll(self) -> int | None:
        if self.returncode is None and select.select([self.pidfd], [], [], 0)[0]:
            self._ended()
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        if self.returncode is None:
            if not select.select([self.pidfd], [], [], timeout)[0]:
                raise subprocess.TimeoutExpired(f"sandbox worker {self.pid}", timeout or 0)
            self._ended()
        assert self.returncode is not None
        return self.returncode

    def _ended(self) -> None:
        self.returncode = -1  # the zygote reaps it; its status is not ours to read
        os.close(self.pidfd)


class Zygote:
    """One warm parent for the sandboxes of the workspaces under ``settings.workspace_root``."""

    def __init__(self, settings: Settings, report: IsolationReport) -> None:
        self.settings = settings
        self.report = report
        self.root = settings.workspace_root.resolve()
        self._lock = threading.Lock()
        self._process: subprocess.Popen[bytes] | None = None
        self._channel: socket.socket | None = None
        self._home: Path | None = None
        self._zygote_fd: int | None = None  # the zygote itself, below its reaper (Landlock tier)
        self.ready: dict[str, Any] = {}

    @staticmethod
    def supported(settings: Settings, report: IsolationReport) -> bool:
        """Whether workers may share a zygote here (the Landlock layer keeps them apart)."""
        if report.tier not in ("bwrap", "landlock") or not report.seccomp:
            return False
        if report.run_as_uid == os.geteuid():
            # Sandboxes run as the files' own user: only a read-only mount of data/ and
            # snapshots/ (bubblewrap, one per sandbox) stops a chmod there, and the zygote's
            # shared view of the workspace root has none.
            return False
        if landlock.abi_version() < MIN_LANDLOCK_ABI:
            return False
        # Landlock without a mount namespace works from copies where the uid cannot reach the
        # root; those are made per session, so such sandboxes start on their own.
        uid = report.run_as_uid
        root = settings.workspace_root.resolve()
        return report.tier == "bwrap" or uid == os.geteuid() or staging.reachable(root, uid)

    def covers(self, workspace_dir: Path) -> bool:
        return workspace_dir.resolve().parent == self.root

    def inner(self, workspace_dir: Path) -> str:
        """Where a worker of this zygote finds ``workspace_dir``."""
        if self.report.tier == "bwrap":
            return f"{isolation.ZYGOTE_ROOT}/{workspace_dir.resolve().name}"
        return str(workspace_dir.resolve())

    def spawn(self, config: dict[str, Any], fds: list[int]) -> WorkerProcess:
        """Fork a worker for ``config`` with the pipe ends ``fds``; raises SandboxStartError."""
        with self._lock:
            self._ensure()
            assert self._channel is not None
            try:
                socket.send_fds(self._channel, [json.dumps(config).encode()], fds)
                self._channel.settimeout(SPAWN_TIMEOUT_S)
                message, pidfds, _, _ = socket.recv_fds(self._channel, 1 << 16, 1)
            except OSError as exc:
                self._stop()
                raise SandboxStartError(f"the sandbox zygote did not answer: {exc}") from exc
            reply = json.loads(message or b"{}")
            if not reply.get("ok") or len(pidfds) != 1:
                for fd in pidfds:
                    os.close(fd)
                raise SandboxStartError(f"the sandbox zygote could not start a worker: {reply.get('error')}")
            return WorkerProcess(pidfds[0])

    def start(self) -> int:
        """Start the zygote if it is not running; returns its outermost process id."""
        with self._lock:
            self._ensure()
            assert self._process is not None
            return self._process.pid

    def close(self) -> None:
        with self._lock:
            self._stop()

    def _ensure(self) -> None:
        if self._alive():
            return
        self._stop()
        uid = self.report.run_as_uid
        self.root.mkdir(parents=True, exist_ok=True)
        if uid != os.geteuid():  # the workers pass through the root to their own workspace (never list it)
            self.root.chmod(self.root.stat().st_mode | 0o001)
        home = Path(tempfile.mkdtemp(prefix="bunseki-zygote-"))
        for name in workspace.INTERNAL_DIRS:
            (home / name).mkdir()
        workspace.seed_font_cache(home / "mplconfig")
        if uid != os.geteuid():
            for directory, _, files in os.walk(home):
                os.chown(directory, uid, uid)
                for name in files:
                    os.chown(os.path.join(directory, name), uid, uid)
        self._home = home
        mine, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        inner_root = isolation.ZYGOTE_ROOT if self.report.tier == "bwrap" else str(self.root)
        inner_home = isolation.ZYGOTE_HOME if self.report.tier == "bwrap" else str(home)
        config = {
            "zygote": True,
            "socket_fd": theirs.fileno(),
            "seccomp": self.report.seccomp,
            "landlock_rules": isolation.landlock_rules([inner_root, inner_home], isolation.Interpreter.current()),
        }
        launch = isolation.build_zygote_launch(self.report, self.root, home, json.dumps(config), [theirs.fileno()])
        try:
            self._process = launch.start(home, subprocess.DEVNULL, "zygote")
        finally:
            theirs.close()
        self._channel = mine
        mine.settimeout(START_TIMEOUT_S)
        try:
            ready = json.loads(mine.recv(1 << 16) or b"{}")
        except (OSError, ValueError) as exc:
            ready = {"error": str(exc)}
        if ready.get("event") != "ready":
            self._stop()
            raise SandboxStartError(f"the sandbox zygote did not start: {ready.get('error', 'no answer')}")
        if launch.reaped:
            self._zygote_fd = _follow(int(ready["pid"]), self._process.pid)
        self.ready = ready

    def _alive(self) -> bool:
        if self._process is None or self._process.poll() is not None:
            return False
        # Below a reaper, the zygote may be gone while the reaper waits for its workers.
        return self._zygote_fd is None or not select.select([self._zygote_fd], [], [], 0)[0]

    def _stop(self) -> None:
        if self._channel is not None:
            self._channel.close()  # the zygote exits when its socket closes
            self._channel = None
        if self._process is not None:
            if self._zygote_fd is not None:
                self._retire(self._process, self._zygote_fd)
            else:  # bubblewrap's: its workers end with its PID namespace anyway
                try:
                    self._process.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    self._process.kill()
                    self._process.wait()
            self._process = None
        if self._zygote_fd is not None:
            os.close(self._zygote_fd)
            self._zygote_fd = None
        if self._home is not None:
            shutil.rmtree(self._home, ignore_errors=True)
            self._home = None

    @staticmethod
    def _retire(reaper: subprocess.Popen[bytes], zygote: int) -> None:
        """End the zygote below ``reaper``; its workers live on, below the reaper, which then ends with them."""
        if not select.select([zygote], [], [], 5)[0]:
            signal.pidfd_send_signal(zygote, signal.SIGKILL)  # it did not exit when asked
        try:
            reaper.wait(timeout=1)
        except subprocess.TimeoutExpired:  # workers are left: a thread waits for the reaper's end
            threading.Thread(target=reaper.wait, name="bunseki-zygote-reaper", daemon=True).start()


def _follow(pid: int, parent: int) -> int | None:
    """A pidfd of ``pid`` if it is ``parent``'s child (the zygote below its reaper), else None."""
    try:
        fd = os.pidfd_open(pid)
    except OSError:
        return None
    try:  # read after the pidfd is held: the pid cannot be another process's meanwhile
        stat = Path(f"/proc/{pid}/stat").read_bytes()
        if int(stat[stat.rfind(b")") + 2 :].split()[1]) == parent:
            return fd
    except OSError:
        pass
    os.close(fd)
    return None


def _pid_of(pidfd: int) -> int:
    """The pid a pidfd refers to, as our PID namespace numbers it."""
    with open(f"/proc/self/fdinfo/{pidfd}", encoding="ascii") as handle:
        for line in handle:
            if line.startswith("Pid:"):
                return int(line.split()[1])
    raise SandboxStartError("the kernel does not tell the pid behind a pidfd (Linux ≥ 5.3 needed)")

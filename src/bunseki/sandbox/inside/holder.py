"""The state holder: owns the namespace and runs each cell in a forked copy of itself.

A cell runs in a child process. If it succeeds, the child takes over as the new holder (it has
the new state) and the old holder exits; if it fails in any way (exception, crash, limit) the
child is killed and the old holder, with the state from before the cell, carries on. The
controller's pipes are handed to the new holder over a socket, so cell code never holds them.

To keep ``fork()`` off the critical path, the holder forks the next cell's process ahead of
time (the "spare"), which waits for code. It saves its state in a forked "saver", never on the
way of a reply or of the next cell: at once when no request is waiting, otherwise while the
next cell runs (once it has run ``SAVE_DURING_CELL_S``); a holder that succeeds before the save
started makes it moot, as its own state is newer. Savers outlive the holder that forked them
and commit in the order of the state's generation (see snapshot.py); a newer saver tells older
ones that have not started writing to give up.
"""

from __future__ import annotations

import gc
import importlib
import json
import os
import resource
import select
import selectors
import signal
import socket
import sys
import time
from dataclasses import dataclass
from typing import Any, NoReturn

import cell
import procs
import protocol
import snapshot
from outcome import Capture, failure_error, limit_for_error

MB = 1024 * 1024
POLL_S = 0.05
FULL_SCAN_S = 0.25
OUTPUT_FLOOD = 64 * MB
HANDOVER_TIMEOUT_S = 10.0
LINGER_S = 10.0  # a former holder waits at most this long for its successor's first fork
AT_REST = 8  # tasks of a sandbox besides its cell (anchor, holder, spare, savers, reaper); session.TASKS_AT_REST too
SAVER_TIMEOUT_S = 60
SAVE_DURING_CELL_S = FULL_SCAN_S  # a cell running this long hides the fork of the saver
SAVE_DEFER_MAX_S = 1.0  # in a stream of back-to-back cells, save at least this often


def fresh_namespace() -> tuple[dict[str, Any], set[str]]:
    import builtins

    import matplotlib.pyplot as plt
    import numpy as np
    import pandas as pd

    # As imported by preload: perhaps a module that runs its code on first use (``import`` would run it).
    sns = sys.modules.get("seaborn") or importlib.import_module("seaborn")
    namespace: dict[str, Any] = {
        "__name__": "__main__",
        "__builtins__": builtins,
        "pd": pd,
        "np": np,
        "plt": plt,
        "sns": sns,
        "display": cell.display,
    }
    return namespace, set(namespace)


@dataclass
class Spare:
    """A forked copy of the holder waiting for the next cell's code (parent's side of it)."""

    pid: int
    code_w: int
    out_r: int
    err_r: int
    res_r: int
    handover: socket.socket

    def close(self) -> None:
        for fd in (self.code_w, self.out_r, self.err_r, self.res_r):
            os.close(fd)
        self.handover.close()


class Holder:
    def __init__(self, config: dict[str, Any], anchor: int, info: dict[str, Any]) -> None:
        self.workspace: str = config["workspace"]
        self.state_dir: str = config["state_dir"]
        self.figure_dir: str = config.get("figure_dir") or os.path.join(self.workspace, "figures")
        self.limits: dict[str, Any] = config["limits"]
        self.anchor = anchor
        self.info = info
        self.req: int = config["req_fd"]
        self.resp: int = config["resp_fd"]
        self.reg: int = config["reg_fd"]
        self.log = os.dup(2)
        os.set_inheritable(self.log, False)
        self.namespace, self.injected = fresh_namespace()
        self.cell = 0
        self.generation = 0  # grows with every change of the state; orders the snapshots
        self.files: dict[str, tuple[int, int]] = {}
        self.unsaved_since: float | None = None  # when the state first differed from any save
        self.saver: int | None = None  # our newest saver
        self.children: set[int] = set()  # our savers not yet reaped
        self.savers: list[tuple[int, int]] = []  # live savers, ours and inherited: (pid, start time)
        self.spare: Spare | None = None
        # A former holder's end of the handover socket: closing it lets that holder exit. It
        # waits until we have forked our spare, as its exit (unmapping a few hundred MB
        # shared with us) would otherwise slow that fork down by half as much again.
        self.predecessor: socket.socket | None = None

    # --- life cycle ---

    def serve(self) -> NoReturn:
        variables, self.cell, self.generation, lost = snapshot.load(self.state_dir)
        self.namespace.update(variables)
        self.files = cell.scan_workspace(self.workspace)
        self.register()
        gc.freeze()  # objects from before a fork stay untouched by the child's collector
        protocol.send(
            self.resp,
            {
                "event": "ready",
                "pid": os.getpid(),
                "restored_cell": self.cell,
                "restored": sorted(variables),
                "lost": lost,
                **self.info,
            },
        )
        handlers = {"run": self.run, "load": self.load, "inspect": self.inspect, "ping": self.ping}
        while True:
            # Forking happens only here, at the top of the loop, so that a spare that takes
            # over as holder continues from this very loop with a flat stack.
            if self.spare is None:
                try:
                    pipes = self.fork_spare()
                finally:
                    self.release_predecessor()
                if pipes is not None:  # we are the spare
                    self.become_cell(*pipes)
                    continue  # we took over: now we are the holder
            self.release_predecessor()
            if self.unsaved_since is not None and (
                not select.select([self.req], [], [], 0)[0] or time.monotonic() - self.unsaved_since > SAVE_DEFER_MAX_S
            ):
                self.start_saver()
            message = protocol.receive(self.req)
            if message is None or message.get("op") == "shutdown":
                self.shutdown()
            handler = handlers.get(str(message.get("op")))
            try:
                reply = handler(message) if handler else {"ok": False, "error": "unknown op"}
            except Exception as exc:  # a bug of ours: report it, keep serving
                reply = {"ok": False, "error": f"{type(exc).__name__}: {exc}"}
            if reply is not None:
                protocol.send(self.resp, {"id": message.get("id"), **reply})

    def release_predecessor(self) -> None:
        if self.predecessor is not None:
            self.predecessor.close()
            self.predecessor = None

    def register(self, pid: int | None = None) -> None:
        os.write(self.reg, f"holder {pid or os.getpid()}\n".encode())

    def shutdown(self) -> NoReturn:
        if self.unsaved_since is not None:
            self.start_saver()
        self.wait_for_saver()
        os.write(self.reg, b"shutdown\n")
        os._exit(0)

    # --- small operations ---

    def ping(self, message: dict[str, Any]) -> dict[str, Any]:
        return {"ok": True, "cell": self.cell}

    def load(self, message: dict[str, Any]) -> dict[str, Any]:
        """Bind a pickle the controller wrote (a DataFrame, usually ``df``) to a name."""
        import pickle

        with open(message["path"], "rb") as handle:
            value = pickle.load(handle)
        self.namespace[message["name"]] = value
        self.discard_spare()  # it has the namespace from before
        self.changed()
        return {"ok": True, "name": message["name"], "type": type(value).__name__}

    def inspect(self, message: dict[str, Any]) -> dict[str, Any]:
        """Names the cells have defined, with their type and shape, for prompts and people."""
        variables = {}
        for name, value in snapshot.persistable(self.namespace, self.injected).items():
            shape = getattr(value, "shape", None)
            variables[name] = {
                "type": type(value).__name__,
                "shape": list(shape) if isinstance(shape, tuple) else None,
            }
        return {"ok": True, "cell": self.cell, "variables": variables}

    # --- the spare: the next cell's process, forked ahead of time ---

    def fork_spare(self) -> tuple[int, int, int, int, socket.socket] | None:
        """Fork the next cell's process; returns its pipe ends in the child, None in the holder."""
        code_r, code_w = os.pipe()
        out_r, out_w = os.pipe()
        err_r, err_w = os.pipe()
        res_r, res_w = os.pipe()
        mine, theirs = socket.socketpair()
        pid = procs.fork_when_allowed()  # waits out a process cap held by cells being stopped
        if pid == 0:
            for fd in (code_w, out_r, err_r, res_r):
                os.close(fd)
            mine.close()
            return code_r, out_w, err_w, res_w, theirs
        for fd in (code_r, out_w, err_w, res_w):
            os.close(fd)
        theirs.close()
        try:
            os.setpgid(pid, pid)
        except OSError:
            pass  # the child already did it
        self.spare = Spare(pid, code_w, out_r, err_r, res_r, mine)
        return None

    def discard_spare(self) -> None:
        if self.spare is not None:
            _kill(self.spare.pid)
            _reap(self.spare.pid)
            self.spare.close()
            self.spare = None

    def become_cell(self, code_r: int, out_w: int, err_w: int, res_w: int, handover: socket.socket) -> None:
        """In the spare: wait for code, run it, report, then take over as holder or exit."""
        os.setpgid(0, 0)
        for fd in (self.req, self.resp, self.reg, self.log):
            os.close(fd)
        self.spare = None
        self.saver, self.children = None, set()  # the holder's savers are not ours to wait for
        request = protocol.receive(code_r)
        os.close(code_r)
        if request is None:
            os._exit(0)  # the holder moved on without us
        number, limits = request["cell"], request["limits"]
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # over-large writes fail with EFBIG instead
        cap_data_segment(limits["memory_mb"] * MB)
        os.dup2(out_w, 1)
        os.dup2(err_w, 2)
        os.close(out_w)
        os.close(err_w)
        before = cell.scan_workspace(self.workspace)  # not self.files: the host may have written since
        outcome = cell.execute(request["code"], self.namespace, number)
        _figures, dropped = cell.save_figures(self.figure_dir, number, limits["max_artifacts"])
        after = cell.scan_workspace(self.workspace)
        outcome.update(figures_dropped=dropped, changed=cell.changed_files(before, after))
        _flush_and_detach_stdio()
        protocol.send(res_w, outcome)
        os.close(res_w)
        verdict, fds, _, _ = socket.recv_fds(handover, 1 << 16, 4)
        if not verdict.startswith(b"take") or len(fds) != 4:
            os._exit(0)
        self.req, self.resp, self.reg, self.log = fds
        inherited = json.loads(verdict[4:])
        self.savers = [(pid, start) for pid, start in inherited["savers"]]
        self.unsaved_since = inherited["unsaved_since"]
        self.cell, self.files = number, after
        self.changed()
        os.dup2(self.log, 2)
        handover.sendall(b"ack")
        self.predecessor = handover  # closed once we have forked our spare: then the old holder exits
        # Back in serve(): the old holder sends the reply; we fork the next spare, then save.

    # --- running a cell ---

    def run(self, message: dict[str, Any]) -> dict[str, Any] | None:
        limits = {**self.limits, **message.get("limits", {})}
        spare, self.spare = self.spare, None
        assert spare is not None, "serve() forks a spare before every request"
        number = self.cell + 1
        started = time.monotonic()
        try:
            protocol.send(spare.code_w, {"code": message["code"], "cell": number, "limits": limits})
            watch = Watch(self, spare, limits, started)
            watch.run()
            return self.finish(message.get("id"), spare, number, limits, watch)
        finally:
            spare.close()

    def finish(
        self, message_id: Any, spare: Spare, number: int, limits: dict[str, Any], watch: Watch
    ) -> dict[str, Any] | None:
        result = watch.result
        succeeded = result is not None and result.get("error") is None and watch.limit is None
        keep = {self.anchor, os.getpid(), *self.saver_pids(), *([spare.pid] if succeeded else [])}
        procs.kill_all(self.anchor, keep=keep)
        if not succeeded:
            _kill(spare.pid)  # our own child: never wait on it on the strength of a /proc walk
            _reap(spare.pid)
        watch.drain()
        reply = self.reply(number, limits, watch, succeeded)
        if succeeded:
            if self.hand_over(spare):
                protocol.send(self.resp, {"id": message_id, **reply})
                self.register(spare.pid)  # after the reply: the anchor follows the chain before we exit
                self.linger(spare)
            # the child died during the handover: the cell's state is gone with it
            reply.update(success=False, error=failure_error("handover", None, limits), limit=None)
        return reply

    def hand_over(self, spare: Spare) -> bool:
        try:
            # The new holder keeps our savers alive and saves at once if we were behind.
            inherited = {"savers": self.live_savers(), "unsaved_since": self.unsaved_since}
            payload = b"take" + json.dumps(inherited).encode()
            socket.send_fds(spare.handover, [payload], [self.req, self.resp, self.reg, self.log])
            spare.handover.settimeout(HANDOVER_TIMEOUT_S)
            if spare.handover.recv(16) == b"ack":
                return True
        except OSError:
            pass
        _kill(spare.pid)
        _reap(spare.pid)
        return False

    def linger(self, successor: Spare) -> NoReturn:
        """Exit once the new holder has forked its spare (it closes the handover socket then)."""
        for fd in (self.req, self.resp, self.reg, self.log):
            os.close(fd)
        try:
            successor.handover.settimeout(LINGER_S)
            successor.handover.recv(16)
        except OSError:
            pass
        os._exit(0)

    def reply(self, number: int, limits: dict[str, Any], watch: Watch, succeeded: bool) -> dict[str, Any]:
        result = watch.result or {}
        notes: list[str] = []
        error = result.get("error")
        limit = watch.limit or limit_for_error(error)
        if not succeeded and error is None:
            error = failure_error(limit or "exit", watch.status, limits)
        elif error is not None and limit is not None:
            error = failure_error(limit, watch.status, limits, error)
        changed = result.get("changed")
        if changed is None:  # the child died before listing its files
            changed = cell.changed_files(self.files, cell.scan_workspace(self.workspace))
        if limit == "disk":
            notes.append(_remove(self.workspace, changed))
            changed = []
        if not succeeded:
            self.files = cell.scan_workspace(self.workspace)
        artifacts = _artifacts(self.workspace, changed, limits, notes)
        if result.get("figures_dropped"):
            notes.append(
                f"{result['figures_dropped']} more open figures were not saved: at most "
                f"{limits['max_artifacts']} per cell."
            )
        return {
            "ok": True,
            "success": succeeded,
            "cell": number,
            "state_cell": number if succeeded else self.cell,
            "stdout": watch.stdout.text(),
            "stderr": watch.stderr.text(),
            "stdout_bytes": watch.stdout.total,
            "stderr_bytes": watch.stderr.total,
            "error": error,
            "limit": limit,
            "artifacts": artifacts,
            "tables": result.get("tables", []),
            "exec_s": result.get("exec_s"),
            "duration_s": time.monotonic() - watch.started,
            "notes": notes,
        }

    # --- saving state ---

    def changed(self) -> None:
        self.generation += 1
        if self.unsaved_since is None:
            self.unsaved_since = time.monotonic()

    def start_saver(self, running: Spare | None = None) -> None:
        """Fork a saver of the current state; ``running`` is the spare of a cell under way."""
        older = self.saver_pids()
        try:
            pid = os.fork()
        except OSError:  # out of processes (a fork bomb under way, say): the save stays pending
            return
        if pid == 0:
            self.save(running)
        self.unsaved_since = None
        self.saver = pid
        self.children.add(pid)
        start = procs.start_time(pid)
        if start is not None:
            self.savers.append((pid, start))
        for old in older:  # superseded: one that has not started writing gives up
            _signal(old, signal.SIGUSR1)

    def save(self, running: Spare | None) -> NoReturn:
        """In the saver: write the snapshot at low priority, then exit."""
        try:
            for spare in (self.spare, running):
                if spare is not None:
                    spare.close()
            for fd in (self.req, self.resp, self.reg):
                os.close(fd)
            writing = False

            def superseded(signum: int, frame: object) -> None:
                if not writing:
                    os._exit(0)

            def locked() -> None:
                nonlocal writing
                writing = True
                signal.alarm(SAVER_TIMEOUT_S)  # a pathological object: the previous snapshot stands

            signal.signal(signal.SIGALRM, signal.SIG_DFL)
            signal.signal(signal.SIGUSR1, superseded)
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGALRM, signal.SIGUSR1})  # a cell may block them
            os.nice(19)  # behind the cell that runs meanwhile
            snapshot.save(self.namespace, self.injected, self.state_dir, self.cell, self.generation, locked)
        finally:
            os._exit(0)

    def live_savers(self) -> list[tuple[int, int]]:
        """Savers still running (ours and our predecessors'); reaps ours that ended."""
        for pid in list(self.children):
            try:
                ended = os.waitpid(pid, os.WNOHANG)[0] != 0
            except ChildProcessError:
                ended = True
            if ended:
                self.children.discard(pid)
        self.savers = [(pid, start) for pid, start in self.savers if procs.start_time(pid) == start]
        return self.savers

    def saver_pids(self) -> set[int]:
        return {pid for pid, _ in self.live_savers()}

    def wait_for_saver(self) -> None:
        """Wait for our newest saver (it commits after any older one), within the saver timeout."""
        if self.saver is None:
            return
        deadline = time.monotonic() + SAVER_TIMEOUT_S
        while time.monotonic() < deadline:
            if os.waitpid(self.saver, os.WNOHANG)[0]:
                break
            time.sleep(0.001)
        else:
            _kill(self.saver)
            _reap(self.saver)
        self.saver = None


class Watch:
    """Follows one cell: collects its output and result, enforces the limits while it runs."""

    def __init__(self, holder: Holder, spare: Spare, limits: dict[str, Any], started: float) -> None:
        self.holder, self.spare, self.limits, self.started = holder, spare, limits, started
        self.pid = spare.pid
        self.stdout = Capture(limits["output_bytes"])
        self.stderr = Capture(limits["output_bytes"])
        self.frames = protocol.FrameBuffer()
        self.result: dict[str, Any] | None = None
        self.status: int | None = None
        self.limit: str | None = None
        self.selector = selectors.DefaultSelector()
        for fd, sink in ((spare.out_r, self.stdout), (spare.err_r, self.stderr), (spare.res_r, self.frames)):
            os.set_blocking(fd, False)
            self.selector.register(fd, selectors.EVENT_READ, sink)
        # Short cells never pay for usage checks; RLIMIT_DATA covers their memory meanwhile.
        self.next_check = started + POLL_S
        self.next_scan = started + FULL_SCAN_S

    def run(self) -> None:
        deadline = self.started + self.limits["timeout_s"]
        while not self.settled():
            now = time.monotonic()
            if now >= deadline:
                self.limit = "wall_time"
                break
            self.read(max(0.0, min(self.next_check, deadline) - now))
            if self.settled():
                break
            waited, status = os.waitpid(self.pid, os.WNOHANG)
            if waited:
                self.status = status
                self.read(0)  # a result written just before the exit
                break
            now = time.monotonic()
            if now >= self.next_check:
                self.next_check = now + POLL_S
                self.limit = self.check_usage(now)
                if self.holder.unsaved_since is not None and now - self.started >= SAVE_DURING_CELL_S:
                    self.holder.start_saver(self.spare)

    def settled(self) -> bool:
        return self.result is not None or self.status is not None or self.limit is not None

    def read(self, timeout: float) -> None:
        for key, _ in self.selector.select(timeout):
            try:
                data = os.read(key.fd, 1 << 16)
            except BlockingIOError:
                continue
            if not data:
                self.selector.unregister(key.fd)
            elif isinstance(key.data, protocol.FrameBuffer):
                try:
                    messages = key.data.feed(data)
                except protocol.ProtocolError:
                    messages = [
                        {
                            "error": {
                                "type": "ProtocolError",
                                "message": "garbled result",
                                "traceback": "ProtocolError: garbled result\n",
                            }
                        }
                    ]
                if messages and self.result is None:
                    self.result = messages[0]
            else:
                key.data.add(data)
                if self.stdout.total + self.stderr.total > OUTPUT_FLOOD:
                    self.limit = "output"

    def check_usage(self, now: float) -> str | None:
        cpu = procs.cpu_seconds(self.pid)
        memory = procs.private_bytes(self.pid)
        if now >= self.next_scan:
            self.next_scan = now + FULL_SCAN_S
            holder = self.holder
            others = procs.descendants(holder.anchor) - {holder.anchor, os.getpid(), self.pid, *holder.saver_pids()}
            cpu += sum(procs.cpu_seconds(pid) for pid in others)
            memory += sum(procs.private_bytes(pid) for pid in others)
            written = sum(size for _, size in cell.scan_workspace(holder.workspace).values())
            if written > self.limits["disk_mb"] * MB:
                return "disk"
            # At its allowance a cell can start nothing more, and the sandbox uid's process cap is
            # shared with other sessions' sandboxes: stop it now rather than at its time limit.
            allowance = self.limits["max_processes"] - AT_REST  # the rest of the cap holds the sandbox itself
            if procs.tasks(self.pid) + sum(procs.tasks(pid) for pid in others) >= allowance:
                return "processes"
        if cpu > self.limits["cpu_s"]:
            return "cpu_time"
        if memory > self.limits["memory_mb"] * MB:
            return "memory"
        return None

    def drain(self) -> None:
        """Read what is left in the pipes once every writer is dead (bounded, never blocks)."""
        deadline = time.monotonic() + 0.5
        while self.selector.get_map() and time.monotonic() < deadline:
            self.read(0.05)
        self.selector.close()


def cap_data_segment(extra: int) -> None:
    """Let this process grow its data segment by ``extra`` bytes at most (a MemoryError after)."""
    _, hard = resource.getrlimit(resource.RLIMIT_DATA)
    with open("/proc/self/status", "rb") as handle:
        line = next(line for line in handle if line.startswith(b"VmData:"))
    wanted = int(line.split()[1]) * 1024 + extra
    if hard != resource.RLIM_INFINITY:
        wanted = min(wanted, hard)
    resource.setrlimit(resource.RLIMIT_DATA, (wanted, hard))


def _flush_and_detach_stdio() -> None:
    import sys

    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:
            pass  # a cell may have replaced or closed them
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)
    os.dup2(null, 2)
    os.close(null)


def _kill(pid: int) -> None:
    _signal(pid, signal.SIGKILL)


def _signal(pid: int, number: int) -> None:
    try:
        os.kill(pid, number)
    except ProcessLookupError:
        pass


def _reap(pid: int) -> None:
    try:
        os.waitpid(pid, 0)
    except ChildProcessError:
        pass


def _remove(workspace: str, changed: list[str]) -> str:
    for path in changed:
        try:
            os.unlink(os.path.join(workspace, path))
        except OSError:
            pass
    return f"Removed the {len(changed)} files the cell wrote, to free the workspace."


def _artifacts(workspace: str, changed: list[str], limits: dict[str, Any], notes: list[str]) -> list[dict[str, Any]]:
    artifacts: list[dict[str, Any]] = []
    max_bytes = limits["max_artifact_mb"] * MB
    for path in changed:
        full = os.path.join(workspace, path)
        try:
            size = os.lstat(full).st_size
        except OSError:
            continue
        if size > max_bytes:
            os.unlink(full)
            notes.append(f"Removed {path} ({size // MB} MB): over the {limits['max_artifact_mb']} MB artifact limit.")
            continue
        if len(artifacts) >= limits["max_artifacts"]:
            notes.append(
                f"{path} and later files are not listed: at most {limits['max_artifacts']} artifacts per cell."
            )
            break
        artifacts.append({"path": path, "bytes": size})
    return artifacts

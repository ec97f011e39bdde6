"""The reaper: a Landlock-tier sandbox never outlives the process that owns it.

``python -I -S -B reaper.py SPEC_JSON ARGV...`` sits between the host (the API server, a Ray actor,
a test) and the process it starts in the Landlock tier: a worker, or a zygote. That tier has no
PID namespace whose end would take every process with it, so this does it instead:

- it is a child subreaper, so whatever a cell double-forks or ``setsid``s away comes back below it;
- it follows the host through a pidfd (not PR_SET_PDEATHSIG, which would kill it before it could
  act, and which fires with the host's *thread*): when the host ends, however it ends, it gives
  the worker a few seconds to save its state and end (an idle one does, on EOF from the host),
  then stops every process below it, then kills them, until none is left, and exits;
- when its child ends, it ends the rest the same way, or (``linger``: a zygote whose workers live
  on after it was closed) keeps reaping and following the host until nothing is left below it.

It runs as the host's user (root drops to the sandbox user for the child only), so a cell cannot
signal it: another uid, or outside the cell's Landlock domain (signals scoped, ABI 6). It is not
confined itself, and reads nothing the sandbox writes: only /proc and its own child's exit.
It lives here, beside main.py, to share procs.py; it runs outside the sandbox, before it.
"""

from __future__ import annotations

import ctypes
import json
import os
import select
import signal
import sys
import time
from typing import Any, NoReturn

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import procs

PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36
HOST_GONE_GRACE_S = 10.0  # for the worker's last save, once the host is gone


def main() -> NoReturn:
    spec: dict[str, Any] = json.loads(sys.argv[1])
    argv = sys.argv[2:]
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        fail(f"prctl(PR_SET_CHILD_SUBREAPER) failed: {os.strerror(ctypes.get_errno())}")
    try:
        host = os.pidfd_open(spec["host"])
    except OSError:
        os._exit(1)  # the host is gone already
    if os.getppid() != spec["host"]:
        os._exit(1)  # it ended (and its pid was taken) before we could follow it
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_w, False)
    signal.signal(signal.SIGCHLD, lambda *_: None)  # a handler, so that the wake-up fd is written
    signal.set_wakeup_fd(wake_w)
    for number in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):  # asked to stop: take the sandbox along
        signal.signal(number, lambda number, _: end(128 + number))
    child = os.fork()
    if child == 0:
        become(spec, argv, libc)
    for fd in spec["fds"]:  # the pipes' ends are the child's: we must not keep them open
        os.close(fd)
    watch(host, child, wake_r, linger=bool(spec.get("linger")))


def become(spec: dict[str, Any], argv: list[str], libc: ctypes.CDLL) -> NoReturn:
    """In the fork: leave root for the sandbox user if asked, die with the reaper, exec the child."""
    try:
        reaper = os.getppid()
        os.setsid()
        user = spec.get("user")
        if user is not None:
            os.setgroups([])
            os.setgid(user)
            os.setuid(user)
        # After the uid change, which clears it; the reaper is a process without threads.
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        if os.getppid() != reaper:
            os._exit(1)
        signal.set_wakeup_fd(-1)  # exec resets the handlers; the wake-up pipe is close-on-exec
        os.execve(argv[0], argv, spec["env"])
    except BaseException as exc:
        os.write(2, f"bunseki reaper: could not start {argv[:1]}: {type(exc).__name__}: {exc}\n".encode())
    os._exit(127)


def watch(host: int, child: int, wake_r: int, *, linger: bool) -> NoReturn:
    """Reap; end everything below when the host ends, or when the child does (unless lingering)."""
    code: int | None = None
    deadline: float | None = None  # once the host is gone
    while True:
        waiting = 5.0 if deadline is None else max(0.0, deadline - time.monotonic())
        readable, _, _ = select.select([host, wake_r] if deadline is None else [wake_r], [], [], waiting)
        if deadline is not None and time.monotonic() >= deadline:
            end(255 if code is None else code)
        if host in readable:
            # An idle holder reads EOF from the host's pipe, saves its state and ends the worker
            # (then we end too); a running cell keeps it from doing so: that ends with the grace.
            deadline = time.monotonic() + HOST_GONE_GRACE_S
        if wake_r in readable:
            os.read(wake_r, 4096)
        while True:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                end(code if code is not None else 1)  # nothing is left below us
            if pid == 0:
                break
            if pid == child:
                exit_code = os.waitstatus_to_exitcode(status)
                code = exit_code if exit_code >= 0 else 128 - exit_code
                if not linger:
                    end(code)


def end(code: int) -> NoReturn:
    procs.end_tree(os.getpid())
    os._exit(code)


def fail(message: str) -> NoReturn:
    os.write(2, f"bunseki reaper: {message}\n".encode())
    os._exit(2)


if __name__ == "__main__":
    main()

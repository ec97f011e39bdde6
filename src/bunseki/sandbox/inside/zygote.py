"""The zygote: imports the analysis stack once, then forks a confined worker per request.

Starting a worker means importing pandas, scikit-learn, scipy and matplotlib: a second or two of
CPU. With twenty sessions starting at once on two cores that becomes tens of seconds. The
zygote pays it once; each worker is then a fork (milliseconds) that confines itself for its own
session before anything else runs in it: resource limits, a Landlock layer that reaches only its
own workspace (on top of the zygote's), the seccomp filter, and only then the holder of main.py.

Requests come over a Unix socket from the controller: one JSON message (the worker's config)
with the worker's two pipe ends attached. The reply carries a pidfd of the new worker.

Nothing of a session ever runs in the zygote: it forks before reading any session data.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import sys
import tempfile
import time
from typing import Any, NoReturn

import confine
import preload
import procs
import protocol

MAX_REQUEST = 1 << 20


def serve(config: dict[str, Any]) -> NoReturn:
    started = time.monotonic()
    channel = socket.socket(fileno=config["socket_fd"])
    try:
        if config.get("landlock_rules"):  # the zygote's own view: every session, never beyond
            confine.restrict_view(config["landlock_rules"])
        versions = preload.warm_up()
        if config.get("seccomp"):
            import pyseccomp  # noqa: F401  (found and loaded now, while /sbin/ldconfig may run)
    except BaseException as exc:
        channel.sendall(json.dumps({"event": "failed", "error": f"{type(exc).__name__}: {exc}"}).encode())
        os._exit(2)
    import gc

    gc.collect()
    gc.freeze()
    info = {"versions": versions, "warmup_s": time.monotonic() - started}
    channel.sendall(json.dumps({"event": "ready", "pid": os.getpid(), **info}).encode())
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # workers are reaped by the kernel
    while True:
        try:
            message, fds, _, _ = socket.recv_fds(channel, MAX_REQUEST, 2)
        except OSError:
            os._exit(0)
        if not message:  # the controller is gone
            os._exit(0)
        request = json.loads(message)
        if len(fds) != 2:
            for fd in fds:
                os.close(fd)
            channel.sendall(json.dumps({"ok": False, "error": "a spawn needs two pipe ends"}).encode())
            continue
        try:
            pid = procs.fork_when_allowed(within_s=procs.START_FORK_WAIT_S)
        except OSError as exc:  # the machine's processes are capped: this start fails, the zygote stays
            for fd in fds:
                os.close(fd)
            channel.sendall(json.dumps({"ok": False, "error": f"{type(exc).__name__}: {exc}"}).encode())
            continue
        if pid == 0:
            channel.close()
            worker(request, fds[0], fds[1], info)
        for fd in fds:
            os.close(fd)
        try:
            pidfd = os.pidfd_open(pid)
        except OSError as exc:  # it died at once
            channel.sendall(json.dumps({"ok": False, "error": f"the worker died at once: {exc}"}).encode())
            continue
        socket.send_fds(channel, [json.dumps({"ok": True, "pid": pid}).encode()], [pidfd])
        os.close(pidfd)


def worker(request: dict[str, Any], req_fd: int, resp_fd: int, info: dict[str, Any]) -> NoReturn:
    """In the fork: become one session's sandbox worker (main.py's anchor), confined first."""
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)  # the anchor waits for its children
    os.setsid()
    config = {**request, "req_fd": req_fd, "resp_fd": resp_fd}
    try:
        for key, value in config["env"].items():  # HOME, TMPDIR… of this session's workspace
            os.environ[key] = value
        tempfile.tempdir = None
        os.chdir(config["workspace"])
        log = os.open(config["log"], os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, 0o644)
        os.dup2(log, 2)  # the holder keeps stderr as its log, as a worker started on its own does
        os.close(log)
        from main import start_worker

        start_worker(config, {**info, "zygote": True}, confined_before_imports=False)
    except BaseException as exc:
        try:
            protocol.send(resp_fd, {"event": "failed", "error": f"{type(exc).__name__}: {exc}"})
        finally:
            os._exit(2)
    sys.exit(0)  # start_worker never returns

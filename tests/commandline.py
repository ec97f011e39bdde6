"""``bunseki ...`` in a new process, as a test runs it, without paying the interpreter's start each time.

A command's process spends most of its time importing the stack (about 1.5 s of CPU of 1.8 s for a
short command). Here a server process per worker imports the command line once; each command is a
fork of it that runs ``python -m bunseki`` (``runpy``, as the interpreter does) with the test's own
arguments, environment, working directory and standard streams, in a process of its own: its exit
status, its output and its signals are a real process's. What a fresh interpreter decides at its start
(the locale and stdio encoding, ``PYTHON*`` variables, the terminal, the home directory) are the same
because one server is started per set of those variables. ``BUNSEKI_TEST_FRESH_CLI=1`` runs every command in a fresh
interpreter instead; tests of the installed entry point do so always (tests/test_packaging.py).

``python tests/commandline.py SOCKET`` is the server: it prints ``ready`` once it listens.
"""

from __future__ import annotations

import atexit
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any

SOURCE = str(Path(__file__).resolve().parents[1] / "src")  # the code under test, not an installed copy
# What an interpreter reads from its environment when it starts, before any command runs.
AT_START = ("LANG", "LANGUAGE", "LC_ALL", "LC_CTYPE", "HOME", "TERM", "COLUMNS", "LINES", "NO_COLOR", "FORCE_COLOR")


def bunseki(
    *args: str | Path,
    input: str | None = None,  # subprocess.run's name
    timeout: float = 300,
    env: Mapping[str, str] | None = None,
    cwd: str | Path | None = None,
) -> subprocess.CompletedProcess[str]:
    """``python -m bunseki ARGS`` as ``subprocess.run(..., capture_output=True, text=True)`` would run it.

    ``env``: the command's whole environment (default: this process's); ``PYTHONPATH`` is set to the
    source under test either way, and in a parallel run as root the worker's sandbox user
    (tests/workers.py) unless ``env`` names one. ``cwd``: its working directory (default: this process's)."""
    environment = {**(os.environ if env is None else env), "PYTHONPATH": SOURCE}
    from tests.workers import worker_sandbox_uid  # not at the top: the server runs this file alone

    if (uid := worker_sandbox_uid()) is not None:  # this worker's sandbox user, not another's
        environment.setdefault("BUNSEKI_SANDBOX_UID", str(uid))
    argv = [str(arg) for arg in args]
    if os.environ.get("BUNSEKI_TEST_FRESH_CLI") == "1":
        return subprocess.run(
            [sys.executable, "-m", "bunseki", *argv],
            input=input,
            stdin=None if input is not None else subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=timeout,
            env=environment,
            cwd=cwd,
        )
    return _server_for(environment).run(argv, input or "", environment, timeout, str(cwd or os.getcwd()))


class _Server:
    """One server process (and the socket it listens on) for one set of start-up variables."""

    def __init__(self, start_environment: dict[str, str]) -> None:
        self.directory = tempfile.mkdtemp(prefix="bunseki-cli-")
        self.address = os.path.join(self.directory, "socket")
        self.process = subprocess.Popen(
            [sys.executable, __file__, self.address],
            env=start_environment,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert self.process.stdout is not None
        line = self.process.stdout.readline().strip()
        if line != "ready":
            self.process.kill()
            raise RuntimeError(f"the command-line server did not start: {line!r}")

    def run(
        self, argv: list[str], stdin: str, environment: dict[str, str], timeout: float, cwd: str
    ) -> subprocess.CompletedProcess[str]:
        with tempfile.TemporaryDirectory(prefix="bunseki-cli-run-") as streams:
            paths = {name: os.path.join(streams, name) for name in ("stdin", "stdout", "stderr")}
            Path(paths["stdin"]).write_text(stdin, encoding="utf-8")
            request = {"argv": argv, "env": environment, "cwd": cwd, **paths}
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as connection:
                connection.connect(self.address)
                connection.sendall(json.dumps(request).encode() + b"\n")
                connection.settimeout(timeout)
                replies = connection.makefile("r", encoding="utf-8")
                pid = int(replies.readline())
                try:
                    status = replies.readline()
                except TimeoutError:
                    os.kill(pid, signal.SIGKILL)
                    raise subprocess.TimeoutExpired(["bunseki", *argv], timeout) from None
            if not status.strip():
                raise RuntimeError(f"the command-line server lost `bunseki {' '.join(argv)}`")
            return subprocess.CompletedProcess(
                ["bunseki", *argv],
                int(status),
                Path(paths["stdout"]).read_text(encoding="utf-8", errors="replace"),
                Path(paths["stderr"]).read_text(encoding="utf-8", errors="replace"),
            )

    def stop(self) -> None:
        self.process.kill()
        self.process.wait()
        if self.process.stdout is not None:
            self.process.stdout.close()
        for name in os.listdir(self.directory):
            os.unlink(os.path.join(self.directory, name))
        os.rmdir(self.directory)


_servers: dict[tuple[tuple[str, str], ...], _Server] = {}
_lock = threading.Lock()


def _server_for(environment: Mapping[str, str]) -> _Server:
    start = {name: value for name, value in environment.items() if name in AT_START or name.startswith("PYTHON")}
    key = tuple(sorted(start.items()))
    with _lock:
        if key not in _servers:
            path = environment.get("PATH", os.defpath)
            _servers[key] = _Server({**start, "PATH": path})
        return _servers[key]


@atexit.register
def _stop_servers() -> None:
    for server in _servers.values():
        server.stop()


# The server ---------------------------------------------------------------------------------------


def serve(address: str) -> None:
    import bunseki.cli  # noqa: F401  (the point: imported once, before the forks)

    if threading.active_count() != 1:
        raise SystemExit("a thread runs after importing bunseki.cli: forking would copy a process in a bad state")
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # the waiters are reaped by the kernel
    parent = os.getppid()
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as listener:
        listener.bind(address)
        listener.listen(16)
        listener.settimeout(1.0)
        print("ready", flush=True)
        while os.getppid() == parent:  # the test worker is gone: so are we
            try:
                connection, _ = listener.accept()
            except TimeoutError:
                continue
            connection.settimeout(None)
            sys.stdout.flush()
            sys.stderr.flush()
            if os.fork() == 0:
                listener.close()
                _wait_for_command(connection)
            connection.close()


def _wait_for_command(connection: socket.socket) -> None:
    """In a fork of the server: run the command in a fork of its own, and report its exit status."""
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    status = 255
    try:
        request = json.loads(connection.makefile("r", encoding="utf-8").readline())
        command = os.fork()
        if command == 0:
            connection.close()
            _command(request)
        connection.sendall(f"{command}\n".encode())
        _, waited = os.waitpid(command, 0)
        code = os.waitstatus_to_exitcode(waited)
        connection.sendall(f"{code}\n".encode())
        status = 0
    finally:
        os._exit(status)


def _command(request: dict[str, Any]) -> None:
    """Become ``python -m bunseki ARGV`` in ``cwd`` with ``env``, on the given files as stdin/out/err."""
    import atexit as exits
    import runpy
    import traceback

    code: int = 1
    try:
        written = os.O_WRONLY | os.O_CREAT | os.O_TRUNC
        for fd, name, flags in ((0, "stdin", os.O_RDONLY), (1, "stdout", written), (2, "stderr", written)):
            opened = os.open(str(request[name]), flags, 0o600)
            os.dup2(opened, fd)
            os.close(opened)
        os.chdir(str(request["cwd"]))
        os.environ.clear()
        os.environ.update(request["env"])
        sys.argv = ["bunseki", *request["argv"]]
        try:
            runpy.run_module("bunseki", run_name="__main__", alter_sys=True)
            code = 0
        except SystemExit as done:
            if done.code is None or isinstance(done.code, int):
                code = done.code or 0
            else:
                print(done.code, file=sys.stderr)
        except BaseException:
            traceback.print_exc()
        threading._shutdown()  # type: ignore[attr-defined]  # as the interpreter does at exit, in its order
        exits._run_exitfuncs()
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:  # a closed stream: nothing to flush
                pass
        os._exit(code)


if __name__ == "__main__":
    serve(sys.argv[1])

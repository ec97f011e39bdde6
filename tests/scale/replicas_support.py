"""API replicas for the scale tests: real ``bunseki serve`` processes over one PostgreSQL and one workspace root.

Each replica is ``bunseki serve`` as the command line runs it, except that its offline brain also
takes two test messages: one starting with `CELL` runs the rest as a cell (so a test can set and read
variables), and `HANG` runs a cell that never ends (so a replica can be killed mid-turn).
"""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

import bunseki as package
from bunseki.service.users import Accounts
from bunseki.store import Store

SOURCE = str(Path(package.__file__).resolve().parents[1])  # the code under test, not an installed copy
PREFIX = "/api/v1/analysis/sessions"
CELL = "セル:"
HANG = "止まるまで計算して"
HANGING_CELL = "half_applied = True\nimport time\nprint('sleeping', flush=True)\ntime.sleep(600)"

# The offline brain every session of a replica gets, with the two test messages above.
TEST_BRAIN = f"""
import bunseki.service.sessions as sessions
from bunseki.brain.analyst.contract import CodeGenOutput, ReasonOutput
from bunseki.brain.analyst.offline import OfflineAnalystBrain

CELL, HANG, HANGING_CELL = {CELL!r}, {HANG!r}, {HANGING_CELL!r}


class TestBrain(OfflineAnalystBrain):
    def decide(self, view):
        if view.question == HANG or view.question.startswith(CELL):
            if view.executions:
                return ReasonOutput(next_action="finalize", rationale="ran it")
            return ReasonOutput(next_action="act", instruction="run the cell", rationale="test")
        return super().decide(view)

    def write_code(self, view):
        if view.question == HANG:
            return CodeGenOutput(code=HANGING_CELL)
        if view.question.startswith(CELL):
            return CodeGenOutput(code=view.question.removeprefix(CELL))
        return super().write_code(view)


sessions.create_analyst_brain = lambda spec, settings: TestBrain()  # the brain every session of this process gets
"""

REPLICA = f"""
import sys

from bunseki.cli import main
{TEST_BRAIN}
sys.argv = ["bunseki", "serve", *sys.argv[1:]]
main()
"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Deployment:
    """What the replicas share: the database, the workspace root and the sandbox backend's settings."""

    database_url: str
    workspace_root: Path
    settings: dict[str, str]  # BUNSEKI_SANDBOX_BACKEND and what that backend needs
    logs: Path  # each replica's output, read when it fails to come up
    replicas: list[Replica] = field(default_factory=list)

    def environment(self) -> dict[str, str]:
        return {
            "PATH": "/usr/bin:/bin",
            "LANG": "C.UTF-8",
            "PYTHONPATH": SOURCE,
            "BUNSEKI_DATABASE_URL": self.database_url,
            "BUNSEKI_WORKSPACE_ROOT": str(self.workspace_root),
            "BUNSEKI_SANDBOX_POOL_SIZE": "0",  # each replica starts a session's sandbox when it opens it
            "BUNSEKI_REPLICA_HEARTBEAT_S": "0.5",  # a replica on "another machine" is gone 1.5 s after its death
            **self.settings,
        }

    def create_key(self, user: str) -> str:
        """A user and their key, made as `bunseki users create` makes them (migrating the database first)."""
        with Store(self.database_url) as store:
            return Accounts(store).create(user)[1]

    def running(self, count: int, key: str) -> list[Replica]:
        """``count`` live replicas: those still running (a test may have killed one), and new ones
        started together for the rest."""
        live = [replica for replica in self.replicas if replica.process.poll() is None][:count]
        started = [self._launch(key) for _ in range(count - len(live))]
        for replica in live + started:  # one that an earlier test's failure left starting too
            replica.wait_until_up()
        return live + started

    def start(self, key: str, *, hostname: str | None = None) -> Replica:
        """A new replica; ``hostname``: as if on another machine (its own UTS namespace, as root), so the
        others cannot ask this machine's /proc whether it lives."""
        replica = self._launch(key, hostname=hostname)
        replica.wait_until_up()
        return replica

    def _launch(self, key: str, *, hostname: str | None = None) -> Replica:
        port = free_port()
        log = self.logs / f"replica-{port}.log"
        command = [sys.executable, "-c", REPLICA, "--host", "127.0.0.1", "--port", str(port)]
        if hostname is not None:  # exec: the process killed is the replica itself, not a shell
            command = ["unshare", "--uts", "--", "sh", "-c", f'hostname {hostname} && exec "$@"', "sh", *command]
        with log.open("w") as output:  # a file, not a pipe nobody reads that could fill and stall the server
            process = subprocess.Popen(
                command,
                env=self.environment(),
                stdout=output,
                stderr=subprocess.STDOUT,
            )
        replica = Replica(process, f"http://127.0.0.1:{port}", {"Authorization": f"Bearer {key}"}, log)
        self.replicas.append(replica)
        return replica

    def stop(self) -> None:
        for replica in self.replicas:
            replica.stop()


@dataclass
class Replica:
    process: subprocess.Popen[bytes]
    url: str
    headers: dict[str, str]
    log: Path

    def wait_until_up(self, bound_s: float = 300) -> None:
        """Wait for its health check (``bound_s``: a bound for hangs on a loaded machine, not a timing check)."""
        deadline = time.monotonic() + bound_s
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise AssertionError(f"the replica exited: {self.log.read_text()[-3000:]}")
            try:
                if httpx.get(f"{self.url}/health", timeout=1).status_code == 200:
                    return
            except httpx.TransportError:
                time.sleep(0.1)
        raise AssertionError(f"the replica did not come up: {self.log.read_text()[-3000:]}")

    def request(self, method: str, path: str, **options: Any) -> httpx.Response:
        return httpx.request(method, f"{self.url}{PREFIX}{path}", headers=self.headers, timeout=180, **options)

    def upload(self, path: Path) -> str:
        with path.open("rb") as handle:
            created = self.request("POST", "", files={"file": (path.name, handle)})
        assert created.status_code == 201, created.text
        return str(created.json()["id"])

    def ask(self, session: str, message: str) -> dict[str, Any]:
        answered = self.request("POST", f"/{session}/chat", json={"message": message})
        assert answered.status_code == 200, answered.text
        body: dict[str, Any] = answered.json()
        return body

    def ask_streaming(self, session: str, message: str) -> list[tuple[str, dict[str, Any]]]:
        """The turn's server-sent events, as (event, data) pairs, up to its result."""
        headers = {**self.headers, "Accept": "text/event-stream"}
        url = f"{self.url}{PREFIX}/{session}/chat"
        with httpx.stream("POST", url, json={"message": message}, headers=headers, timeout=180) as response:
            assert response.status_code == 200, response.read()
            return events(response.iter_lines())

    def get(self, path: str) -> Any:
        got = self.request("GET", path)
        assert got.status_code == 200, got.text
        return got.json()

    def kill(self) -> None:
        """SIGKILL: no shutdown handler runs, as when a machine dies."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(30)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=30)


def events(lines: Any) -> list[tuple[str, dict[str, Any]]]:
    """Server-sent events from a stream's lines, as (event, data) pairs."""
    found: list[tuple[str, dict[str, Any]]] = []
    name = "message"
    for line in lines:
        if line.startswith("event: "):
            name = line.removeprefix("event: ")
        elif line.startswith("data: "):
            found.append((name, json.loads(line.removeprefix("data: "))))
            name = "message"
    return found

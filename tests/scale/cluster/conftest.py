"""A three-node Ray cluster on this machine (head, two sandbox workers), for the whole inner run.

It runs with Ray's token authentication, as the docs tell operators to.
The head advertises no ``bunseki_sandbox``, so sandboxes can only land on the workers. Health checks
are tuned so a killed node is declared dead in about two seconds, not fifteen. The
workspace root and the SQLite database (fencing epochs) live on one path all "nodes" share. A
PostgreSQL server of the namespace's own, for API replicas, starts beside the cluster (its initdb
overlaps the cluster's start) and stops before it. After the run, no Ray, PostgreSQL or sandbox
process may be left: the fixture's teardown checks /proc and fails otherwise.
"""

from __future__ import annotations

import os
import secrets
import shutil
import subprocess
import tempfile
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import ray
from ray.cluster_utils import Cluster
from sqlalchemy import Engine

from bunseki.sandbox import new_workspace
from bunseki.sandbox.ray_backend import RayBackend, _token_auth_from_environment
from bunseki.settings import Settings
from bunseki.store import make_engine
from tests.scale.conftest import processes_of_the_run
from tests.scale.testbed import start_cluster

POSTGRES_SCRIPT = Path(__file__).resolve().parents[3] / "scripts" / "postgres.sh"


class Postgres:
    """``scripts/postgres.sh`` on a data directory and port of the run's own, started in the background."""

    def __init__(self, data: Path) -> None:
        self.environment = {**os.environ, "BUNSEKI_POSTGRES_DIR": str(data), "BUNSEKI_POSTGRES_PORT": "54331"}
        self.starting = subprocess.Popen(
            ["bash", str(POSTGRES_SCRIPT), "start"],
            env=self.environment,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )

    def url(self) -> str:
        """The admin URL, once the server is up."""
        out, err = self.starting.communicate(timeout=300)
        assert self.starting.returncode == 0, err
        return out.strip()

    def stop(self) -> None:
        if self.starting.poll() is None:
            self.starting.communicate(timeout=300)  # stopping a server half started would leave it running
        subprocess.run(["bash", str(POSTGRES_SCRIPT), "stop"], env=self.environment, capture_output=True, check=False)


@dataclass
class LocalCluster:
    cluster: Cluster
    root: Path  # the shared workspace root (and the SQLite database of the fencing epochs)
    postgres: Postgres
    workers: list[Any] = field(default_factory=list)  # ray._private.node.Node

    def settings(self, **changes: Any) -> Settings:
        values: dict[str, Any] = {
            "workspace_root": self.root,
            "sandbox_backend": "ray",
            "ray_address": self.cluster.address,
            "sandbox_timeout_s": 60,
        }
        return Settings(**(values | changes))

    def head_id(self) -> str:
        return str(self.cluster.head_node.node_id)  # type: ignore[attr-defined]

    def worker_ids(self) -> set[str]:
        return {node.node_id for node in self.workers}

    def worker(self, node_id: str) -> Any:
        return next(node for node in self.workers if node.node_id == node_id)


@pytest.fixture(scope="session")
def ray_cluster() -> Iterator[LocalCluster]:
    scratch = Path(os.environ.get("RAY_TMPDIR") or tempfile.mkdtemp(prefix="bkray-"))
    os.environ["RAY_TMPDIR"] = str(scratch)  # Ray's files (and its "current cluster" file) stay ours
    os.environ["RAY_USAGE_STATS_ENABLED"] = "0"
    # Token authentication on: the nodes start with the token, and this driver presents
    # it the way the backend does when only RAY_AUTH_TOKEN is set.
    os.environ["RAY_AUTH_TOKEN"] = secrets.token_hex(32)
    os.environ.pop("RAY_AUTH_MODE", None)
    _token_auth_from_environment()
    assert os.environ["RAY_AUTH_MODE"] == "token"
    root = scratch / "shared"
    root.mkdir(exist_ok=True)
    for directory in (scratch, root):
        directory.chmod(0o711)  # the sandbox user walks down to its workspace
    postgres = Postgres(scratch / "postgres")
    try:
        cluster, workers = start_cluster(workers=2, sandbox_slots=20, object_store_mb=80)
        try:
            ray.init(address=cluster.address, namespace="bunseki", log_to_driver=False)
            yield LocalCluster(cluster=cluster, root=root, postgres=postgres, workers=workers)
        finally:
            ray.shutdown()
            cluster.shutdown()  # type: ignore[no-untyped-call]
    finally:
        postgres.stop()
    leftovers = _wait_for_leftovers(scratch)
    shutil.rmtree(scratch, ignore_errors=True)
    assert leftovers == [], f"processes left after the cluster tests: {leftovers}"


@pytest.fixture
def sessions(ray_cluster: LocalCluster) -> Iterator[SessionOpener]:
    opener = SessionOpener(ray_cluster)
    yield opener
    for backend, session_id in opener.opened:
        backend.stop(session_id)


class SessionOpener:
    """Starts sessions (each on a fresh workspace) and stops them after the test."""

    def __init__(self, ray_cluster: LocalCluster) -> None:
        self.ray_cluster = ray_cluster
        self.opened: list[tuple[RayBackend, str]] = []

    def open(self, backend: RayBackend) -> tuple[str, Path]:
        session_id = uuid.uuid4().hex
        workspace = new_workspace(self.ray_cluster.root)
        backend.ensure(session_id, workspace)
        self.opened.append((backend, session_id))
        return session_id, workspace


def wait_until(condition: Any, what: str, bound_s: float = 60.0) -> None:
    """Poll ``condition`` until it holds; fail after ``bound_s`` (a bound for hangs, not a timing check)."""
    deadline = time.monotonic() + bound_s
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"{what} did not happen within {bound_s:g} s")
        time.sleep(0.05)


def leftover_processes(scratch: Path) -> list[str]:
    """Processes of this run other than ourselves: in our network namespace, or naming our files."""
    return processes_of_the_run(scratch, netns=os.readlink("/proc/self/ns/net"))


def _wait_for_leftovers(scratch: Path, bound_s: float = 20.0) -> list[str]:
    deadline = time.monotonic() + bound_s
    while (found := leftover_processes(scratch)) and time.monotonic() < deadline:
        time.sleep(0.2)
    return found


@pytest.fixture(scope="session")
def postgres_admin(ray_cluster: LocalCluster) -> Iterator[Engine]:
    """The namespace's own PostgreSQL (the host's is out of reach here), for API replicas."""
    engine = make_engine(ray_cluster.postgres.url())
    yield engine.execution_options(isolation_level="AUTOCOMMIT")
    engine.dispose()

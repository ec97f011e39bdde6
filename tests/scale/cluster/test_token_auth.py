"""Ray's token authentication (2.60): a cluster started with RAY_AUTH_MODE=token refuses a driver without
the token, and admits the backend given only RAY_AUTH_TOKEN (it switches token mode on for itself)."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path

from tests.scale.cluster.conftest import OBJECT_STORE, LocalCluster

SRC = Path(__file__).resolve().parents[3] / "src"
HEAD = f"""
import sys
from ray.cluster_utils import Cluster
cluster = Cluster(initialize_head=True, head_node_args={{
    "num_cpus": 0, "include_dashboard": False, "object_store_memory": {OBJECT_STORE}}})
print(cluster.address, flush=True)
sys.stdin.read()  # until the test closes our stdin
cluster.shutdown()
"""
PLAIN_DRIVER = "import sys, ray; ray.init(address=sys.argv[1]); print('connected')"
BACKEND_DRIVER = """
import sys
from bunseki.sandbox.ray_backend import RayBackend
from bunseki.settings import Settings
health = RayBackend(Settings(ray_address=sys.argv[1], workspace_root=sys.argv[2], sandbox_backend="ray")).health()
print(health.detail)
sys.exit(0 if "error" not in health.detail else 1)
"""


def _environment(scratch: Path, **extra: str) -> dict[str, str]:
    base = {name: value for name, value in os.environ.items() if not name.startswith("RAY_AUTH")}
    return base | {"RAY_TMPDIR": str(scratch), "PYTHONPATH": str(SRC)} | extra


def _driver(code: str, arguments: list[str], environment: dict[str, str]) -> subprocess.Popen[str]:
    command = [sys.executable, "-c", code, *arguments]
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=environment)


def test_a_token_cluster_refuses_a_driver_without_the_token_and_admits_the_backend_with_it(
    ray_cluster: LocalCluster,
) -> None:
    token = secrets.token_hex(32)
    scratch = ray_cluster.root.parent / "token-cluster"
    scratch.mkdir()
    head = subprocess.Popen(
        [sys.executable, "-c", HEAD],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=_environment(scratch, RAY_AUTH_MODE="token", RAY_AUTH_TOKEN=token),
    )
    try:
        assert head.stdout is not None
        address = head.stdout.readline().strip()
        assert address.startswith("127.0.0.1:"), address

        # side by side: a refused driver retries for about 20 s before it gives up
        without = _driver(PLAIN_DRIVER, [address], _environment(scratch))
        backend = _driver(BACKEND_DRIVER, [address, str(scratch)], _environment(scratch, RAY_AUTH_TOKEN=token))
        without_out, _ = without.communicate(timeout=300)
        backend_out, backend_err = backend.communicate(timeout=300)
    finally:
        assert head.stdin is not None
        head.stdin.close()
        head.wait(timeout=120)
        if head.stdout is not None:
            head.stdout.close()

    assert without.returncode != 0
    assert "connected" not in without_out
    assert backend.returncode == 0, backend_out + backend_err[-2000:]
    assert "'sandbox_nodes': 0" in backend_out  # it talked to the cluster (a head without sandbox slots)

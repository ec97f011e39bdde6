"""A Ray cluster of several nodes on this machine, for the cluster tests and the Ray benchmark.

A head without sandbox slots and sandbox worker nodes (``ray.cluster_utils.Cluster``), run inside a
private network namespace so that Ray's ports (it listens on every interface of its namespace) stay
off this machine's interfaces. Health checks are tuned so that a killed node is declared dead in
about two seconds, not fifteen. ``ray`` is imported only when a cluster starts.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ray.cluster_utils import Cluster

HEALTH_CHECKS = {
    "health_check_period_ms": 500,
    "health_check_failure_threshold": 3,
    "health_check_timeout_ms": 500,
    "health_check_initial_delay_ms": 0,
}
REENTER = 'ip link set lo up && exec "$0" "$@"'  # sh -c script: loopback up, then the command


def interfaces() -> set[str]:
    """The network interfaces of this process's namespace (/proc/self/net follows it; /sys does not)."""
    lines = Path("/proc/self/net/dev").read_text().splitlines()[2:]
    return {line.split(":", 1)[0].strip() for line in lines}


def in_private_netns() -> bool:
    return interfaces() == {"lo"}


def private_netns() -> list[str] | None:
    """The command prefix that runs a command in a new network namespace here, or None when impossible
    (it needs ``unshare`` and ``ip``, and root or unprivileged user namespaces)."""
    unshare = shutil.which("unshare")
    if unshare is None or shutil.which("ip") is None:
        return None
    if os.geteuid() == 0:
        return [unshare, "--net", "--"]
    probe = subprocess.run([unshare, "-rn", "--", "true"], capture_output=True, check=False)
    return [unshare, "-rn", "--"] if probe.returncode == 0 else None


def start_cluster(*, workers: int, sandbox_slots: int, object_store_mb: int) -> tuple[Cluster, list[Any]]:
    """A head (one CPU, no sandbox slots, no dashboard) and ``workers`` sandbox nodes, all up; the
    cluster and its worker nodes (``ray._private.node.Node``). The caller shuts it down."""
    from ray.cluster_utils import Cluster

    from bunseki.sandbox.ray_backend import RESOURCE

    store = object_store_mb * 1024 * 1024
    cluster = Cluster(
        initialize_head=True,
        head_node_args={
            "num_cpus": 1,
            "include_dashboard": False,
            "object_store_memory": store,
            "_system_config": HEALTH_CHECKS,
        },
    )
    try:
        nodes = [
            cluster.add_node(num_cpus=1, resources={RESOURCE: sandbox_slots}, object_store_memory=store)
            for _ in range(workers)
        ]
        cluster.wait_for_nodes()
    except BaseException:
        cluster.shutdown()  # type: ignore[no-untyped-call]
        raise
    return cluster, nodes

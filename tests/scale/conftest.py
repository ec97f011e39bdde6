"""The cluster tests (``cluster/``) run only inside a private network namespace, started by test_cluster.py.

Ray binds its ports on every interface; in a namespace with nothing but loopback they stay on the
test's own machine and vanish with it. Anywhere else ``cluster/`` is not collected: the outer test
runs it.
"""

from __future__ import annotations

from pathlib import Path


def interfaces() -> set[str]:
    """The network interfaces of this process's namespace (/proc/self/net follows it; /sys does not)."""
    lines = Path("/proc/self/net/dev").read_text().splitlines()[2:]
    return {line.split(":", 1)[0].strip() for line in lines}


def in_private_netns() -> bool:
    return interfaces() == {"lo"}


def pytest_ignore_collect(collection_path: Path) -> bool | None:
    if collection_path.name == "cluster" and collection_path.parent == Path(__file__).parent:
        return None if in_private_netns() else True
    return None

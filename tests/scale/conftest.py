"""The cluster tests (``cluster/``) run only inside a private network namespace, started by test_cluster.py.

Ray binds its ports on every interface; in a namespace with nothing but loopback they stay on the
test's own machine and vanish with it. Anywhere else ``cluster/`` is not collected: the outer test
runs it.
"""

from __future__ import annotations

import os
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


def processes_of_the_run(marker: Path, netns: str | None = None) -> list[str]:
    """Live processes (not us) whose command line or environment names ``marker``, or in ``netns``."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            cmdline = Path(f"/proc/{entry}/cmdline").read_bytes()
            environ = Path(f"/proc/{entry}/environ").read_bytes()
            namespace = os.readlink(f"/proc/{entry}/ns/net")
            state = Path(f"/proc/{entry}/stat").read_bytes().rsplit(b")", 1)[1].split()[0]
        except OSError:  # gone meanwhile, or not ours to read
            continue
        if state == b"Z":
            continue
        if namespace == netns or str(marker).encode() in cmdline + environ:
            command = cmdline.replace(b"\0", b" ").decode(errors="replace")[:120]
            found.append(f"{entry}: {command}")
    return found

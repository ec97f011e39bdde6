"""The cluster tests (``cluster/``) run only inside a private network namespace, started by test_cluster.py.

Ray binds its ports on every interface; in a namespace with nothing but loopback they stay on the
test's own machine and vanish with it. Anywhere else ``cluster/`` is not collected: the outer test
runs it.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.scale.testbed import in_private_netns


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


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A test here that kills a replica runs last in its module, so that the module's replicas start
    once (a killed one is replaced for the tests after it, at the cost of a start). Only the order
    within each run of one module's tests changes; this hook sees the whole session's items."""
    here = Path(__file__).parent
    start = 0
    while start < len(items):
        end = start
        while end < len(items) and items[end].path == items[start].path:
            end += 1
        if items[start].path.is_relative_to(here):
            run = items[start:end]
            items[start:end] = [i for i in run if "killed" not in i.name] + [i for i in run if "killed" in i.name]
        start = end

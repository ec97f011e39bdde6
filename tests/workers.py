"""Which sandbox user a parallel test worker's sandboxes run as."""

from __future__ import annotations

import os

NOBODY = 65534


def worker_sandbox_uid() -> int | None:
    """The sandbox uid of this parallel worker when we are root: the uids below nobody's (65533 for
    the first, 65532 for the next…), None outside a parallel run or when not root.

    RLIMIT_NPROC counts every task of a uid on the machine, so sandboxes of several processes sharing
    one uid (outside a user namespace of their own) take from each other's allowance: a fork bomb in
    one worker's test would starve another's sandbox. Nobody's uid stays for what runs without the
    setting (a command a test starts with an environment of its own). Several servers on one machine
    are in the same position; the README says to give each its own uid."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    if os.geteuid() != 0 or not worker.startswith("gw"):
        return None
    return NOBODY - 1 - int(worker.removeprefix("gw"))

"""Helpers shared by tests (fixtures live in conftest.py)."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import get_args

from sqlalchemy import Engine, text

from bunseki.sandbox import Sandbox, isolation
from bunseki.sandbox.workspace import internal
from bunseki.settings import IsolationChoice, Settings


def available_tiers() -> list[str]:
    """The isolation tiers this machine offers, strongest first."""
    tiers = []
    for tier in get_args(IsolationChoice):
        if tier != "auto" and isolation.probe(Settings(sandbox_isolation=tier)).tier == tier:
            tiers.append(tier)
    return tiers


def age_beat(raw: Engine, owner: str, seconds: float) -> None:
    """Move ``owner``'s last heartbeat ``seconds`` into the past, by the database's clock (no sleeping)."""
    if raw.dialect.name == "postgresql":
        update = "UPDATE replicas SET seen_at = now() - make_interval(secs => :seconds) WHERE owner = :owner"
    else:
        update = "UPDATE replicas SET seen_at = strftime('%Y-%m-%d %H:%M:%f', 'now', :shift) WHERE owner = :owner"
    with raw.begin() as connection:
        changed = connection.execute(text(update), {"seconds": seconds, "shift": f"-{seconds} seconds", "owner": owner})
    assert changed.rowcount == 1, f"{owner} has no heartbeat to age"


def processes_in(workspace: str | Path, wait_s: float = 10) -> list[int]:
    """Processes with ``workspace`` in their command line (a sandbox on it), after giving them ``wait_s`` to go."""
    deadline = time.monotonic() + wait_s
    while True:
        left = [pid for pid in _pids() if str(workspace) in _cmdline(pid)]
        if not left or time.monotonic() > deadline:
            return left
        time.sleep(0.1)


def _pids() -> list[int]:
    return [int(name) for name in os.listdir("/proc") if name.isdigit()]


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def saved_cell(box: Sandbox) -> int:
    """The cell whose state the newest complete snapshot holds (-1 before the first)."""
    state = internal(box.work_dir, "state")  # a working copy's, where Landlock works from one
    try:
        generation = (state / "CURRENT").read_text().strip()
        return int(json.loads((state / generation / "manifest.json").read_text())["cell"])
    except (OSError, ValueError):
        return -1


def wait_until_saved(box: Sandbox, cell: int, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while saved_cell(box) < cell:
        assert time.monotonic() < deadline, f"the state after cell {cell} was not saved in time"
        time.sleep(0.02)

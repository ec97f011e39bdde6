"""Helpers shared by tests (fixtures live in conftest.py)."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import get_args

from bunseki.sandbox import isolation
from bunseki.settings import IsolationChoice, Settings


def available_tiers() -> list[str]:
    """The isolation tiers this machine offers, strongest first."""
    tiers = []
    for tier in get_args(IsolationChoice):
        if tier != "auto" and isolation.probe(Settings(sandbox_isolation=tier)).tier == tier:
            tiers.append(tier)
    return tiers


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

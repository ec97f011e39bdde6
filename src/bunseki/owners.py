"""Who is running a turn or a cell: a process, named so that another process can tell whether it still lives.

An owner is ``host:pid:start-time``, optionally followed by ``:<more>`` (a service within the process).
"""

from __future__ import annotations

import os
import socket


def process_owner() -> str:
    """This process, uniquely: host, pid and start time (pids are reused, start times are not)."""
    return f"{socket.gethostname()}:{os.getpid()}:{start_time(os.getpid())}"


def process_of(owner: str) -> str:
    """The process part of an owner (``host:pid:start-time``), without what follows it."""
    return ":".join(owner.split(":")[:3])


def start_time(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            return handle.read().rsplit(b")", 1)[1].split()[19].decode()
    except (OSError, IndexError):
        return "?"


def alive(owner: str) -> bool:
    host, pid, started, *_ = [*owner.split(":"), "", ""]
    if host != socket.gethostname() or not pid.isdigit():
        return True  # another machine's process: cannot tell, so do not take its turn away
    return start_time(int(pid)) == started

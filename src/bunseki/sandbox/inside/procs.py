"""Reading /proc for the watchdog: who descends from whom, and how much each process uses."""

from __future__ import annotations

import os
import signal
import time

PAGE = os.sysconf("SC_PAGE_SIZE")
TICKS = os.sysconf("SC_CLK_TCK")
FORK_PAUSE_MAX_S = 0.5
START_FORK_WAIT_S = 10.0  # a worker being started (the controller waits a minute for it)


def fork_when_allowed(within_s: float | None = None) -> int:
    """fork(), waiting out a process cap that is being freed (for ``within_s`` seconds at most).

    RLIMIT_NPROC counts every process of the sandbox uid: those of a cell that was just killed
    until the anchor reaps them (a few tenths of a second), and those of other sessions' sandboxes
    under the same uid, whose watchdogs stop a cell at its allowance or its limits; a machine's
    cap on processes (a cgroup's pids.max) is shared by everything on it. Until then fork() fails
    with EAGAIN. The holder waits rather than die, which would lose the state since the last save
    (a request meanwhile waits in the pipe, and the controller's own deadline still stands); a
    worker being started waits a bounded while, then reports why it could not.
    """
    deadline = None if within_s is None else time.monotonic() + within_s
    pause = 0.05
    while True:
        try:
            return os.fork()
        except BlockingIOError:
            if deadline is not None and time.monotonic() + pause > deadline:
                raise
            time.sleep(pause)
            pause = min(pause * 2, FORK_PAUSE_MAX_S)


def _stat_fields(pid: int) -> list[str] | None:
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            raw = handle.read()
    except OSError:
        return None
    # The command name is in parentheses and may hold spaces; fields after it are fixed.
    return raw[raw.rfind(b")") + 2 :].decode().split()


def _processes() -> dict[int, tuple[str, int]]:
    """pid -> (state letter, parent pid) for every process we can see."""
    found: dict[int, tuple[str, int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            fields = _stat_fields(int(entry))
            if fields is not None:
                found[int(entry)] = (fields[0], int(fields[1]))
    return found


def descendants(root: int, processes: dict[int, tuple[str, int]] | None = None) -> set[int]:
    """Every live process below ``root`` (the anchor is a subreaper, so orphans stay below it).

    The walk goes through zombies: when a multi-threaded parent exits, its children are handed
    to one of its still-exiting threads first and keep its pid as their parent while its leader
    already shows as a zombie. Skipping zombies there would hide a whole live subtree.
    """
    processes = _processes() if processes is None else processes
    children: dict[int, list[int]] = {}
    for pid, (_, parent) in processes.items():
        children.setdefault(parent, []).append(pid)
    found: set[int] = set()
    stack = [root]
    while stack:
        for child in children.get(stack.pop(), ()):
            if child not in found:
                found.add(child)
                stack.append(child)
    return {pid for pid in found if processes[pid][0] not in ("Z", "X")}  # zombies wait to be reaped


def start_time(pid: int) -> int | None:
    """When ``pid`` started (clock ticks since boot): tells a process from a later one with its pid."""
    fields = _stat_fields(pid)
    if fields is None or fields[0] in ("Z", "X"):
        return None
    return int(fields[19])


def cpu_seconds(pid: int) -> float:
    """User + system time of ``pid`` and of its children it has waited for."""
    fields = _stat_fields(pid)
    if fields is None:
        return 0.0
    return sum(int(value) for value in fields[11:15]) / TICKS


def tasks(pid: int) -> int:
    """How many tasks (threads) ``pid`` runs: what RLIMIT_NPROC counts."""
    fields = _stat_fields(pid)
    if fields is None or fields[0] in ("Z", "X"):
        return 0
    return int(fields[17])


def private_bytes(pid: int) -> int:
    """Memory this process does not share with its parent (copy-on-write pages it has written)."""
    try:
        with open(f"/proc/{pid}/smaps_rollup", "rb") as handle:
            text = handle.read()
    except OSError:
        return resident_bytes(pid)
    total = 0
    for line in text.splitlines():
        if line.startswith((b"Private_Clean:", b"Private_Dirty:", b"SwapPss:")):
            total += int(line.split()[1]) * 1024
    return total


def resident_bytes(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/statm", "rb") as handle:
            return int(handle.read().split()[1]) * PAGE
    except (OSError, IndexError, ValueError):
        return 0


def kill_all(root: int, keep: set[int]) -> int:
    """SIGKILL every process below ``root`` except ``keep``, until none is left; returns count."""
    killed = 0
    for _ in range(50):  # a fork bomb may fork while we kill; the process cap bounds it
        targets = descendants(root) - keep
        if not targets:
            break
        for pid in targets:
            try:
                os.kill(pid, signal.SIGKILL)
                killed += 1
            except ProcessLookupError:
                pass
    return killed


def end_tree(root: int, rounds: int = 100) -> None:
    """Stop every process below ``root`` (so none forks on or slips away), then kill them; until none is left."""
    for _ in range(rounds):
        stopped: set[int] = set()
        for _ in range(20):
            found = descendants(root) - stopped
            if not found:
                break
            _send(found, signal.SIGSTOP)
            stopped |= found
        if not stopped:
            return
        _send(stopped, signal.SIGKILL)


def _send(pids: set[int], number: int) -> None:
    for pid in pids:
        try:
            os.kill(pid, number)
        except (ProcessLookupError, PermissionError):
            pass

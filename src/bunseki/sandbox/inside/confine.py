"""Process-wide confinement applied by the worker before it imports anything heavy.

Order matters: resource limits first, then the Landlock view (tier "landlock" only), then the
seccomp filter, because libseccomp has to be found and loaded while the filesystem is still
visible to it.
"""

from __future__ import annotations

import ctypes
import resource
from typing import Any

import landlock
import syscall_filter

PR_SET_CHILD_SUBREAPER = 36
MB = 1024 * 1024

_libc = ctypes.CDLL(None, use_errno=True)


def apply(config: dict[str, Any]) -> dict[str, Any]:
    """Confine this process as ``config`` says; returns what was actually applied."""
    limits = config["limits"]
    applied: dict[str, Any] = {"tier": config["tier"]}
    set_limit(resource.RLIMIT_CORE, 0)
    set_limit(resource.RLIMIT_FSIZE, limits["disk_mb"] * MB)
    # The whole sandbox may hold the session's state plus one cell's worth of new data; each
    # cell gets a tighter RLIMIT_DATA of its own (see holder.py).
    set_limit(resource.RLIMIT_DATA, (2 * limits["memory_mb"] + 1024) * MB)
    set_limit(resource.RLIMIT_NPROC, config.get("tasks_base", 0) + limits["max_processes"])
    set_oom_score_adj(800)
    if config["tier"] == "landlock" or config.get("landlock_layer"):  # zygote workers: on every tier
        applied["landlock_abi"] = restrict_view(config["landlock_rules"])
    if config.get("seccomp"):
        syscall_filter.install()
        applied["seccomp"] = True
    if _libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_CHILD_SUBREAPER) failed")
    return applied


def restrict_view(rules: list[list[str]] | list[tuple[str, str]]) -> int:
    """Landlock: from now on only these paths, with these rights; returns the ABI applied."""
    return landlock.restrict([(path, bundle) for path, bundle in rules])


def set_limit(kind: int, value: int) -> None:
    """Set soft and hard limit to ``value``, or lower only the soft one if the hard is below."""
    _, hard = resource.getrlimit(kind)
    if hard != resource.RLIM_INFINITY and hard < value:
        value = hard
    resource.setrlimit(kind, (value, value))


def set_oom_score_adj(score: int) -> None:
    """Make the kernel's OOM killer pick sandbox processes before anything on the host."""
    try:
        with open("/proc/self/oom_score_adj", "w") as handle:
            handle.write(str(score))
    except OSError:
        pass  # lowering needs privileges; raising is always allowed, but /proc may be absent

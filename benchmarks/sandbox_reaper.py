"""What the reaper above a Landlock-tier sandbox costs: start latency and memory.

    python benchmarks/sandbox_reaper.py [--rounds 20] [--sandboxes 3]

The reaper (src/bunseki/sandbox/inside/reaper.py) is one small Python process per sandbox
started on its own, and one per zygote. Measured in the same run, taking turns:

- a bare process start: from `Launch.start` to the process writing to a pipe, with and without
  the reaper in between (the reaper's own start, which a sandbox's start waits for);
- a whole Landlock-tier sandbox start (until its worker is ready), with and without the reaper;
- the reaper's resident and proportional memory, beside the whole sandbox's (its worker tree).

Printed as medians and ratios. A whole start varies by a second on a loaded machine, more than
the reaper adds, so the target is read from the bare starts: the reaper's own start (their
difference) is at most 5% of a sandbox's start without it, both from this run.
Needs the Landlock tier (the machine's kernel and seccomp).
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import shutil
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bunseki.sandbox import Sandbox, isolation, new_workspace
from bunseki.sandbox.inside import procs
from bunseki.settings import Settings

TARGET_START_SHARE = 0.05
MB = 1024 * 1024


def bare_start(reaped: bool) -> float:
    """Seconds from asking for a process to it running (it writes one byte to a pipe)."""
    read_end, write_end = os.pipe()
    launch = isolation.Launch(
        argv=["/bin/sh", "-c", f"echo up >&{write_end}"], env={}, pass_fds=[write_end], reaped=reaped
    )
    began = time.perf_counter()
    process = launch.start(Path("/"), subprocess.DEVNULL, "benchmark")
    os.close(write_end)
    os.read(read_end, 3)
    took = time.perf_counter() - began
    os.close(read_end)
    process.wait()
    return took


def sandbox_start(root: Path, settings: Settings, reaped: bool) -> tuple[float, dict[str, float]]:
    original = isolation.build_launch

    def launch_as_asked(*args: Any, **kwargs: Any) -> isolation.Launch:
        return dataclasses.replace(original(*args, **kwargs), reaped=reaped)

    isolation.build_launch = launch_as_asked  # the baseline: no reaper
    try:
        box = Sandbox(new_workspace(root), settings=settings)
        began = time.perf_counter()
        box.start()
        took = time.perf_counter() - began
    finally:
        isolation.build_launch = original
    memory: dict[str, float] = {}
    if reaped and box.pid is not None:
        tree = procs.descendants(box.pid)
        memory = {
            "reaper_rss_mb": procs.resident_bytes(box.pid) / MB,
            "reaper_pss_mb": _pss(box.pid) / MB,
            "sandbox_pss_mb": sum(_pss(pid) for pid in tree | {box.pid}) / MB,
        }
    box.close()
    return took, memory


def _pss(pid: int) -> int:
    try:
        text = Path(f"/proc/{pid}/smaps_rollup").read_bytes()
    except OSError:
        return 0
    return next((int(line.split()[1]) * 1024 for line in text.splitlines() if line.startswith(b"Pss:")), 0)


def alternate(rounds: int, measure: Callable[[bool], float]) -> tuple[list[float], list[float]]:
    without: list[float] = []
    with_reaper: list[float] = []
    for _ in range(rounds):
        without.append(measure(False))
        with_reaper.append(measure(True))
    return without, with_reaper


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--sandboxes", type=int, default=5)
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="bunseki-bench-reaper-"))
    root.chmod(0o711)
    settings = Settings(workspace_root=root, sandbox_isolation="landlock")
    if isolation.probe(settings).tier != "landlock":
        print(f"skipped: no Landlock tier here ({isolation.probe(settings).reason})")
        return 0
    bare_without, bare_with = alternate(args.rounds, bare_start)
    memories: list[dict[str, float]] = []

    def one_sandbox(reaped: bool) -> float:
        took, memory = sandbox_start(root, settings, reaped)
        if memory:
            memories.append(memory)
        return took

    try:
        box_without, box_with = alternate(args.sandboxes, one_sandbox)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    bare = statistics.median(bare_with) - statistics.median(bare_without)
    share = bare / statistics.median(box_without)
    print("\nThe reaper above a Landlock-tier sandbox (medians, taking turns in the same run)\n")
    print(f"{'':34} {'without':>10} {'with':>10} {'ratio':>7}")
    for name, without, with_reaper in (
        (f"process start, ms (n={args.rounds})", bare_without, bare_with),
        (f"sandbox start, ms (n={args.sandboxes})", box_without, box_with),
    ):
        low, high = statistics.median(without) * 1000, statistics.median(with_reaper) * 1000
        print(f"{name:34} {low:10.1f} {high:10.1f} {high / low:7.2f}")
    print(f"\nreaper's own start: +{bare * 1000:.1f} ms per sandbox (one per zygote), {share:.1%} of a sandbox start")
    for key in ("reaper_rss_mb", "reaper_pss_mb", "sandbox_pss_mb"):
        print(f"{key:16} {statistics.median(memory[key] for memory in memories):8.1f}")
    met = share <= TARGET_START_SHARE
    print(f"\ntarget: the reaper's start ≤ {TARGET_START_SHARE:.0%} of a sandbox's: {'met' if met else 'NOT met'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""A host that test_reaper.py SIGKILLs while its Landlock-tier sandbox runs a cell that forks.

``python reaper_host.py ROOT MARKER own|zygote plain|bomb|idle``: opens a sandbox in a new
workspace under ROOT, runs a cell that leaves a setsid double-forked ``sleep`` and a few children
(each with MARKER in its command line), then (``bomb``) forks without end. Prints ``UP <workspace>``
once those processes exist, then waits to be killed. ``idle``: runs a cell that sets ``x`` and
prints ``UP`` at once, while the worker saves that state.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from pathlib import Path

from bunseki.sandbox import Limits, Sandbox, isolation, new_workspace
from bunseki.sandbox.zygote import Zygote
from bunseki.settings import Settings
from tests.support import processes_in

CHILDREN = 3
BOMB_FORKS = 20  # the bomb is going: this many forks of the cell (RLIMIT_NPROC allows 48)

CELL = """
import os, subprocess, sys
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        os.execv('/usr/bin/sleep', ['sleep-{marker}', '1000'])
    os._exit(0)
os.wait()
children = [
    subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(1000)', '{marker}'])
    for _ in range({children})
]
if {bomb}:
    while True:
        try:
            os.fork()
        except OSError:
            pass
else:
    import time
    time.sleep(1000)
"""
SAVED = "x = 42\npad = list(range(3_000_000))  # a state that takes a moment to save"


def main() -> None:
    root, marker, start, kind = Path(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
    # Little room kept for other sessions: RLIMIT_NPROC, which bounds the bomb, stays near max_processes.
    settings = Settings(workspace_root=root, sandbox_isolation="landlock", open_sessions=1, sandbox_pool_size=0)
    report = isolation.require(settings)
    zygote = Zygote(settings, report) if start == "zygote" else None
    # Long limits: nothing may end because a limit ran out before the host is killed.
    limits = Limits(timeout_s=900, cpu_s=900, memory_mb=400, max_processes=48)
    box = Sandbox(new_workspace(root), settings=settings, limits=limits, zygote=zygote)
    box.start()
    if zygote is not None and not box.ready.get("zygote"):
        raise SystemExit("the worker was not forked by the zygote")
    if kind == "idle":  # the host saw this cell's reply; its state is being saved when we die
        assert box.run(SAVED).success
        print("UP", box.work_dir, flush=True)
        time.sleep(3600)
    code = CELL.format(marker=marker, children=CHILDREN, bomb=kind == "bomb")
    threading.Thread(target=box.run, args=(code,), kwargs={"check_policy": False}, daemon=True).start()
    resting = len(processes_in(root, wait_s=0))
    deadline = time.monotonic() + 120
    while len(set(processes_in(marker, wait_s=0)) - {os.getpid()}) < CHILDREN + 1 or (
        kind == "bomb" and len(processes_in(root, wait_s=0)) < resting + BOMB_FORKS
    ):
        if time.monotonic() > deadline:
            raise SystemExit("the cell's processes did not start")
        time.sleep(0.1)
    print("UP", box.work_dir, flush=True)
    time.sleep(3600)


if __name__ == "__main__":
    main()

"""Entry point of the sandbox worker: ``python -I -B main.py CONFIG_JSON``.

The first process is the anchor. It confines itself, imports the analysis stack once, becomes a
subreaper (orphans of cells come back to it) and forks the first state holder. From then on it
only reaps processes and watches the holder chain: if the current holder dies, it kills every
process below it and exits, and the controller starts a fresh sandbox that reloads the last
snapshot of the state.

Files in this directory run inside the sandbox: they import each other as top-level modules and
use only the standard library and the analysis libraries the sandbox offers.
"""

from __future__ import annotations

import gc
import json
import os
import select
import sys
import time
from typing import Any, NoReturn

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import confine
import preload
import procs
import protocol


def main() -> NoReturn:
    started = time.monotonic()
    config: dict[str, Any] = json.loads(sys.argv[1])
    if config.get("zygote"):
        import zygote

        zygote.serve(config)
    try:
        applied = confine.apply(config)
        versions = preload.warm_up(everything=False)  # started on its own: see preload
    except BaseException as exc:  # report why we could not start, then give up
        protocol.send(config["resp_fd"], {"event": "failed", "error": f"{type(exc).__name__}: {exc}"})
        os._exit(2)
    info = {"confinement": applied, "versions": versions, "warmup_s": time.monotonic() - started}
    start_worker(config, info, confined_before_imports=True)


def start_worker(config: dict[str, Any], info: dict[str, Any], *, confined_before_imports: bool) -> NoReturn:
    """Become the anchor: confine (unless done before the imports), fork the first holder, watch."""
    reg_r, reg_w = os.pipe()
    config["reg_fd"] = reg_w
    if not confined_before_imports:  # a fork of the zygote: the stack is imported already
        info = {**info, "confinement": confine.apply(config)}
    gc.collect()
    gc.freeze()
    anchor = os.getpid()
    first = procs.fork_when_allowed(within_s=procs.START_FORK_WAIT_S)  # a cap being freed; the controller waits longer
    if first == 0:
        os.close(reg_r)
        from holder import Holder

        Holder(config, anchor, info).serve()
    for fd in (reg_w, config["req_fd"], config["resp_fd"]):
        os.close(fd)
    watch_holders(anchor, first, reg_r)


def watch_holders(anchor: int, current: int, reg_r: int) -> NoReturn:
    """Reap everything; exit (killing all below) when the holder chain ends, cleanly or not."""
    pending = b""
    reaped: list[int] = []  # recent exits: a holder may be named after it died
    while True:
        readable, _, _ = select.select([reg_r], [], [], 0.2)
        if readable:
            data = os.read(reg_r, 4096)
            if not data:
                finish(anchor, 3)  # no holder left to write to us
            pending += data
            *lines, pending = pending.split(b"\n")
            for line in lines:
                if line == b"shutdown":
                    finish(anchor, 0)
                if line.startswith(b"holder "):
                    current = int(line.split()[1])
                    if current in reaped:
                        finish(anchor, 3)
        while True:
            try:
                pid, _ = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                break
            if pid == 0:
                break
            reaped = [*reaped[-63:], pid]
            if pid == current and not select.select([reg_r], [], [], 0)[0]:
                finish(anchor, 3)  # the holder died without handing over


def finish(anchor: int, code: int) -> NoReturn:
    procs.kill_all(anchor, keep={anchor})
    os._exit(code)


if __name__ == "__main__":
    main()

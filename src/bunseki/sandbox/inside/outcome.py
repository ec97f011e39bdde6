"""Turning what happened to a cell into output text and errors a person or a model can act on."""

from __future__ import annotations

import errno
import os
import signal
from typing import Any

HEAD_SHARE = 0.8
STATE_KEPT = "The session is as it was before this cell."

ADVICE = {
    "wall_time": (
        "TimeLimitExceeded",
        "The cell ran longer than the {timeout_s:g} s time limit and was stopped. {kept} "
        "Make the work cheaper (sample the rows, fewer iterations, vectorised pandas instead "
        "of Python loops) or allow more time.",
    ),
    "cpu_time": (
        "CpuTimeLimitExceeded",
        "The cell used more than {cpu_s:g} s of CPU time and was stopped. {kept} "
        "Make the computation cheaper (sample the rows, fewer models or folds, n_jobs=1).",
    ),
    "memory": (
        "MemoryLimitExceeded",
        "The cell needed more than the {memory_mb} MB memory limit and was stopped. {kept} "
        "Work on a sample or on fewer columns, avoid copying large frames, and use smaller "
        "dtypes (float32, category).",
    ),
    "disk": (
        "DiskLimitExceeded",
        "The cell wrote more than the {disk_mb} MB the workspace may hold and was stopped. "
        "{kept} Write summaries or samples instead of whole large files.",
    ),
    "output": (
        "OutputLimitExceeded",
        "The cell printed far more than can be shown and was stopped. {kept} Print summaries "
        "(df.head(), df.describe(), value_counts().head(20)) instead of whole tables.",
    ),
    "processes": (
        "ProcessLimitExceeded",
        "The cell ran as many processes and threads at once as the {max_processes} the sandbox may "
        "(with its own), and was stopped. {kept} "
        "Start fewer workers (n_jobs=1, a smaller pool) and wait for the processes and threads you start.",
    ),
    "handover": (
        "WorkerLost",
        "The cell finished, but its process died before its results could be kept. {kept} Run the cell again.",
    ),
}


class Capture:
    """Keeps the head and the tail of a stream within ``limit`` bytes and counts the rest."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.head = bytearray()
        self.tail = bytearray()
        self.total = 0

    def add(self, data: bytes) -> None:
        self.total += len(data)
        room = int(self.limit * HEAD_SHARE) - len(self.head)
        if room > 0:
            self.head += data[:room]
            data = data[room:]
        if data:
            self.tail += data
            keep = self.limit - int(self.limit * HEAD_SHARE)
            del self.tail[: max(0, len(self.tail) - keep)]

    def text(self) -> str:
        dropped = self.total - len(self.head) - len(self.tail)
        head = self.head.decode("utf-8", "replace")
        tail = self.tail.decode("utf-8", "replace")
        if dropped > 0:
            return f"{head}\n[… {dropped} bytes of output omitted …]\n{tail}"
        return head + tail


def limit_for_error(error: dict[str, Any] | None) -> str | None:
    """The limit an exception raised inside the cell stands for, if any."""
    if error is None:
        return None
    if error.get("type") == "MemoryError":
        return "memory"
    if error.get("errno") == errno.EFBIG:
        return "disk"
    return None


def failure_error(
    kind: str, status: int | None, limits: dict[str, Any], original: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The error for a cell that hit ``kind`` (a limit, or "exit" when its process ended)."""
    if kind == "exit":
        return _exit_error(status)
    name, template = ADVICE[kind]
    message = template.format(kept=STATE_KEPT, **limits)
    if original is not None:  # keep the cell's own traceback, explain the limit behind it
        return {
            **original,
            "message": f"{original['message']} — {message}",
            "traceback": f"{original['traceback'].rstrip()}\n{message}\n",
        }
    return {"type": name, "message": message, "traceback": f"{name}: {message}\n"}


def _exit_error(status: int | None) -> dict[str, Any]:
    if status is not None and os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        name = signal.Signals(number).name if number in signal.valid_signals() else str(number)
        if number == signal.SIGKILL:
            message = (
                f"The cell's process was killed ({name}), most likely by the kernel for "
                f"using too much memory. {STATE_KEPT}"
            )
        else:
            description = signal.strsignal(number) or name
            message = (
                f"The cell crashed the Python process ({name}: {description}), usually "
                f"through a native library or ctypes. {STATE_KEPT}"
            )
        return {"type": "ProcessCrashed", "message": message, "traceback": f"ProcessCrashed: {message}\n"}
    code = os.waitstatus_to_exitcode(status) if status is not None else None
    message = (
        f"The cell ended its own process (exit status {code}, e.g. os._exit). Cells share "
        f"one session and must not exit it. {STATE_KEPT}"
    )
    return {"type": "ProcessExited", "message": message, "traceback": f"ProcessExited: {message}\n"}

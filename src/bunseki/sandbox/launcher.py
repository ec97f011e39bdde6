"""Sandbox processes are started from one thread that lives as long as this process.

bubblewrap's ``--die-with-parent`` (PR_SET_PDEATHSIG) fires when the *thread* that started it ends,
not the process. A sandbox started by a short-lived thread (a UI turn's worker, a Streamlit script
run, a web server's pool thread) would be killed with that thread, its latest state unsaved.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

T = TypeVar("T")

_lock = threading.Lock()
_executor: ThreadPoolExecutor | None = None
_owner = 0  # the process the executor's thread belongs to (a forked child has none)


def on_launcher(start: Callable[[], T]) -> T:
    """Run ``start`` (a process start, quick) on the launcher thread and return what it returned."""
    global _executor, _owner
    with _lock:
        if _executor is None or _owner != os.getpid():
            # One worker that never idles out: the executor's threads live until it is shut down.
            _executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="bunseki-sandbox-launcher")
            _owner = os.getpid()
        executor = _executor
    if threading.current_thread().name.startswith("bunseki-sandbox-launcher"):
        return start()
    return executor.submit(start).result()

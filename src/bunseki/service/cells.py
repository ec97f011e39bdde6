"""Running a single cell in a fresh sandbox, with an optional data file as ``df``."""

from __future__ import annotations

import uuid
from pathlib import Path

from bunseki.data import load_table
from bunseki.domain import ExecutionResult
from bunseki.sandbox import add_data_file, backends
from bunseki.sandbox.backend import SandboxBackend, SessionSandbox
from bunseki.settings import Settings


def run_cell(
    code: str,
    *,
    workspace_dir: Path,
    data_file: Path | None = None,
    timeout: float | None = None,
    settings: Settings | None = None,
    backend: SandboxBackend | None = None,
) -> ExecutionResult:
    """Run ``code`` once in a new sandbox on ``workspace_dir``; the sandbox is stopped after.

    The data file is parsed here (encoding and delimiter detected), copied read-only into the
    workspace's ``data/``, and bound to ``df`` inside the sandbox. ``backend``: where the sandbox
    runs (default: the configured one, opened and closed here).

    Raises:
        DataLoadError: the data file cannot be read as a table.
        IsolationUnavailable: no isolation tier works here and unsafe mode is off.
        SandboxStartError: the worker did not come up.
        SandboxLost: the sandbox's machine was lost while the cell ran.
    """
    settings = settings or Settings()
    table = load_table(data_file) if data_file is not None else None
    chosen = backend or backends.create(settings, warm=False)
    try:
        with SessionSandbox(chosen, f"cell-{uuid.uuid4().hex}", workspace_dir) as sandbox:
            if table is not None and data_file is not None:
                add_data_file(sandbox.workspace, data_file)
                sandbox.load_frame(table.frame)
            return sandbox.run(code, timeout=timeout)
    finally:
        if backend is None:
            chosen.close()

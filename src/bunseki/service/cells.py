"""Running a single cell in a fresh sandbox, with an optional data file as ``df``."""

from __future__ import annotations

from pathlib import Path

from bunseki.data import load_table
from bunseki.sandbox import ExecutionResult, Sandbox, add_data_file
from bunseki.settings import Settings


def run_cell(
    code: str,
    *,
    workspace_dir: Path,
    data_file: Path | None = None,
    timeout: float | None = None,
    settings: Settings | None = None,
) -> ExecutionResult:
    """Run ``code`` once in a new sandbox on ``workspace_dir``; the sandbox is closed after.

    The data file is parsed here (encoding and delimiter detected), copied read-only into the
    workspace's ``data/``, and bound to ``df`` inside the sandbox.

    Raises:
        DataLoadError: the data file cannot be read as a table.
        IsolationUnavailable: no isolation tier works here and unsafe mode is off.
        SandboxStartError: the worker did not come up.
    """
    settings = settings or Settings()
    table = load_table(data_file) if data_file is not None else None
    with Sandbox(workspace_dir, settings=settings) as sandbox:
        if table is not None and data_file is not None:
            add_data_file(sandbox.workspace, data_file)
            sandbox.load_frame(table.frame)
        return sandbox.run(code, timeout=timeout)

"""Writing a report into its workspace as Markdown, self-contained HTML and a notebook."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import nbformat

from bunseki.domain import ReportOutput
from bunseki.report.html import render_html
from bunseki.report.markdown import render_markdown
from bunseki.report.notebook import DataSource, build_notebook


@dataclass(frozen=True)
class SavedReport:
    """Where the report was written, and its Markdown (to show without reading the file back)."""

    markdown_path: Path
    html_path: Path
    notebook_path: Path
    markdown: str


def save_report(
    report: ReportOutput,
    workspace: Path,
    *,
    code_cells: Sequence[str] = (),
    source: DataSource | None = None,
    stem: str = "report",
) -> SavedReport:
    """Write ``<stem>.md``, ``<stem>.html`` and ``<stem>.ipynb`` into ``workspace``.

    Raises:
        ValueError: ``stem`` is not a plain file name (a separator, or a leading ".").
    """
    _check_stem(stem)
    markdown = render_markdown(report, code_cells=code_cells)
    html = render_html(report, workspace, code_cells=code_cells)
    notebook: str = nbformat.writes(build_notebook(report, code_cells, source))  # type: ignore[no-untyped-call]
    saved = SavedReport(
        markdown_path=workspace / f"{stem}.md",
        html_path=workspace / f"{stem}.html",
        notebook_path=workspace / f"{stem}.ipynb",
        markdown=markdown,
    )
    write_atomically(saved.markdown_path, markdown)
    write_atomically(saved.html_path, html)
    write_atomically(saved.notebook_path, notebook)
    return saved


def _check_stem(stem: str) -> None:
    if not stem or stem.startswith(".") or any(character in stem for character in "/\\\0"):
        raise ValueError(f"the report name {stem!r} must be a plain file name, such as 'report'")


def write_atomically(path: Path, text: str) -> None:
    """Write a temp file beside ``path`` and rename it over, so no reader sees half a report.

    The rename also replaces a symlink that cell code may have left at ``path`` instead of
    writing through it.
    """
    descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(descriptor, "wb") as handle:
            os.fchmod(handle.fileno(), 0o644)  # a report to share, not mkstemp's private 0600
            handle.write(text.encode("utf-8"))
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass  # the error that got us here is the one worth reporting
        raise

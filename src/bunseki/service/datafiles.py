"""Which sheet of a session's workbook it analyses, kept beside the data file in its workspace.

The choice is a small JSON file next to the read-only copy in ``data/`` (which cells cannot
change), so that reopening a session reads the same sheet without a column in the store.
"""

from __future__ import annotations

import json
from pathlib import Path, PurePosixPath

from bunseki.data.load import EXCEL_SUFFIXES, sheet_names
from bunseki.sandbox.workspace import host_writes

_SUFFIX = ".bunseki.json"


def save_sheet(copy: Path, sheet: str) -> None:
    """Remember that the session on ``copy`` (a workbook in a workspace) analyses ``sheet``."""
    target = copy.with_name(copy.name + _SUFFIX)
    with host_writes(copy.parent):
        target.write_text(json.dumps({"sheet": sheet}, ensure_ascii=False), encoding="utf-8")
        target.chmod(0o444)


def saved_sheet(copy: Path) -> str | None:
    """The sheet chosen for the session on ``copy``, or None (the loader's default)."""
    try:
        saved = json.loads(copy.with_name(copy.name + _SUFFIX).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    sheet = saved.get("sheet") if isinstance(saved, dict) else None
    return sheet if isinstance(sheet, str) else None


def workbook_sheets(file_name: str | None, content: bytes) -> list[str]:
    """The sheet names of an uploaded workbook ([] for other files, or one that cannot be read)."""
    if PurePosixPath(file_name or "").suffix.lower() not in EXCEL_SUFFIXES:
        return []
    return sheet_names(content)

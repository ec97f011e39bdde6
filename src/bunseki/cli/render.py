"""How sessions, data states and steps look in a terminal, shared by ``chat`` and ``sessions``."""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path
from typing import Any, BinaryIO, Literal, cast

from rich.table import Table

from bunseki.cli.files import check_writable, write_new_file
from bunseki.domain import Session, Snapshot, Step
from bunseki.errors import InputError
from bunseki.service import AnalysisService, OpenFile

REPORT_FORMATS = ("md", "html", "ipynb")
DATA_FORMATS = ("csv", "parquet")
EXPORT_FORMATS = REPORT_FORMATS + DATA_FORMATS


def data_table(overview: dict[str, Any]) -> Table:
    """The active data: its state in a line, then each column with its type."""
    table = Table("column", "type", title=overview["state"], title_justify="left")
    for column, dtype in overview["dtypes"].items():
        table.add_row(column, dtype)
    caption = f"{overview['rows']:,} 行 × {overview['column_count']} 列, {overview['memory_bytes'] / 1e6:.1f} MB"
    notes = overview.get("notes") or []  # how the file was read: the overview states it as an assumption
    table.caption = "\n".join([caption, *(f"・{note}" for note in notes)])
    return table


def steps_table(steps: list[Step]) -> Table:
    table = Table("#", "step", "parameters", "rows", "s")
    for step in steps:
        rows = "" if step.rows_before is None else f"{step.rows_before:,} → {step.rows_after or 0:,}"
        parameters = json.dumps(step.parameters, ensure_ascii=False)
        if step.step_type == "code":
            parameters = str(step.parameters.get("instruction") or step.parameters.get("code", ""))
        table.add_row(str(step.position), step.step_type, _clip(parameters), rows, f"{step.duration_s:.2f}")
    return table


def snapshots_table(snapshots: list[Snapshot]) -> Table:
    table = Table("name", "id", "rows", "columns", "saved at")
    for item in snapshots:
        saved = f"{item.created_at.astimezone():%Y-%m-%d %H:%M}"
        table.add_row(item.name, item.id[:8], f"{item.rows:,}", str(item.columns), saved)
    return table


def sessions_table(sessions: list[Session]) -> Table:
    table = Table("id", "title", "data", "rows", "model", "updated")
    for record in sessions:
        table.add_row(
            record.id[:8],
            record.title,
            record.dataset_name,
            f"{record.dataset_rows:,}",
            record.model,
            f"{record.updated_at.astimezone():%Y-%m-%d %H:%M}",
        )
    return table


def copy_export(
    service: AnalysisService, record: Session, fmt: str, target: Path | None, *, force: bool = False
) -> Path | None:
    """Export a session's latest report or current data to ``target`` ("-": stdout, a folder: a file
    named after the session in it); returns the absolute path written.

    An existing file is replaced only with ``force``; a symbolic link is never written through.
    """
    if fmt not in EXPORT_FORMATS:
        raise InputError(f"unknown export format '{fmt}': choose one of {', '.join(EXPORT_FORMATS)}")
    to_stdout = target is not None and str(target) == "-"
    if to_stdout and fmt == "parquet":
        raise InputError("Parquet is binary: give a file name instead of -")
    if not to_stdout:
        default_name = f"{_file_name(record.title)}-{record.id[:8]}.{fmt}"
        if target is None:
            target = Path.cwd() / default_name
        elif target.is_dir() and not target.is_symlink():
            target = target / default_name
        target = Path(os.path.abspath(target))  # absolute, without resolving a link at the end
        check_writable(target, force=force)
    if fmt in REPORT_FORMATS:
        source = service.open_report(record.id, cast(Literal["md", "html", "ipynb"], fmt))
    else:
        source = service.open_data(record.id, cast(Literal["csv", "parquet"], fmt))
    with source:
        if target is None or to_stdout:
            _copy(source, sys.stdout.buffer)
            sys.stdout.flush()
            return None
        write_new_file(target, source.chunks(), force=force)
    return target


def _copy(source: OpenFile, target: BinaryIO) -> None:
    for chunk in source.chunks():
        target.write(chunk)


def _file_name(title: str) -> str:
    return re.sub(r"[\\/:*?\"<>|\s]+", "_", title).strip("_") or "session"


def _clip(text: str, width: int = 80) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"

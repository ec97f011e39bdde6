"""A session's data state: the data as uploaded, and the data as it stands now.

The current data changes only through recorded steps (a tool, a reset, a snapshot restore), so it
can always be rebuilt: from the original, or from the snapshot the last restore named, by
replaying the data-changing steps after it. A Parquet copy of the current data in the workspace
saves the replay after a restart; it is trusted only when it says which step it reflects.
Snapshots are Parquet files in the workspace (read-only inside the sandbox), with rows in the
store.
"""

from __future__ import annotations

import json
import os
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from bunseki.data.load import LoadedTable
from bunseki.data.nested import freeze_arrays
from bunseki.data.notes import LoadNote
from bunseki.data.summary import DataFrameInfo, summarize
from bunseki.errors import ToolRetry
from bunseki.sandbox.workspace import SNAPSHOTS as SNAPSHOT_DIR
from bunseki.sandbox.workspace import host_writes
from bunseki.tools import ToolResult, run_tool

CURRENT = "current.parquet"
CURRENT_META = "current.json"
RESET = "reset"
RESTORE = "restore"
STATE_COMMANDS = (RESET, RESTORE)


@dataclass(frozen=True)
class AppliedStep:
    """A data-changing step as replay needs it: what ran, with which arguments, after which position."""

    position: int
    step_type: str
    parameters: dict[str, Any]


@dataclass
class DataState:
    """The original and current data of one session, with the step position it reflects."""

    original: pd.DataFrame
    workspace: Path
    source: str | None = None
    notes: tuple[LoadNote, ...] = ()  # how the file was read (the loader's notes), for the overview and reports
    sheet: str | None = None  # the sheet read, for a workbook
    sheets: tuple[str, ...] = ()
    current: pd.DataFrame = field(init=False)
    position: int = 0  # the last data-changing step applied (0: none)
    labels: list[str] = field(default_factory=list)  # what was done since the original, for people
    recipe: list[str] = field(default_factory=list)  # Python that rebuilds the current df from the original
    _info: DataFrameInfo | None = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        self.current = self.original

    @classmethod
    def of(cls, table: LoadedTable, workspace: Path, *, source: str | None = None) -> DataState:
        """The state of a freshly loaded table, with what the loader noted about it."""
        return cls(table.frame, workspace, source=source, notes=table.notes, sheet=table.sheet, sheets=table.sheets)

    def note_texts(self, language: str = "ja") -> list[str]:
        """How the file was read, one line per note, in ``language``."""
        return [note.text(language) for note in self.notes]

    # --- reading ---

    @property
    def info(self) -> DataFrameInfo:
        """The summary of the current data (what brains plan with), computed once per state."""
        if self._info is None:
            self._info = summarize(self.current, source=self.source)
        return self._info

    @property
    def is_original(self) -> bool:
        return not self.labels

    def describe(self, language: str = "ja") -> str:
        """The active data state in one line, for the person and for the model."""
        rows, total = len(self.current), len(self.original)
        if self.is_original:
            return f"元のデータ（{rows:,} 行）" if language == "ja" else f"the original data ({rows:,} rows)"
        steps = " → ".join(self.labels[-4:])
        if language == "ja":
            return f"加工後のデータ（{rows:,} 行／元 {total:,} 行）: {steps}"
        return f"transformed data ({rows:,} of {total:,} rows): {steps}"

    # --- changing (each call is one step the caller records) ---

    def run(self, tool: str, arguments: dict[str, Any]) -> ToolResult:
        """Run a tool on the current data without changing anything (raises ToolRetry)."""
        return run_tool(tool, self.current, arguments)

    def accept(self, result: ToolResult, arguments: dict[str, Any], *, position: int, language: str = "ja") -> None:
        """Make a data-changing tool's result the current data, as of step ``position``."""
        if result.changes_data and result.frame is not None:
            self.recipe.append(f"df = run_tool({result.name!r}, df, {arguments!r}).frame.reset_index(drop=True)")
            self._set(result.frame, position, result.summary_ja if language == "ja" else result.summary_en)

    def apply(self, tool: str, arguments: dict[str, Any], *, position: int, language: str = "ja") -> ToolResult:
        result = self.run(tool, arguments)
        self.accept(result, arguments, position=position, language=language)
        return result

    def recipe_cell(self) -> str | None:
        """A notebook cell that brings ``df`` from the original data to the current state."""
        if not self.recipe:
            return None
        header = "# The data state of this session (Bunseki's data tools), from the original data\n"
        return header + "from bunseki.tools import run_tool\n\n" + "\n".join(self.recipe) + "\n"

    def reset(self, *, position: int) -> None:
        self.current = self.original
        self.labels = []
        self.recipe = []
        self.position = position
        self._info = None
        self.save_current()

    def restore(self, frame: pd.DataFrame, *, name: str, path: str, position: int) -> None:
        """Make a snapshot's data (``path`` relative to the workspace) the current data."""
        self.labels = [f"snapshot {name}"]
        self.recipe = [f"df = pd.read_parquet({path!r})  # snapshot {name}"]
        self._set(frame, position, None)

    def _set(self, frame: pd.DataFrame, position: int, label: str | None) -> None:
        self.current = frame.reset_index(drop=True)
        self.position = position
        if label:
            self.labels.append(label)
        self._info = None
        self.save_current()

    # --- files ---

    def write_snapshot(self) -> str:
        """Save the current data as a new snapshot file; returns its path relative to the workspace."""
        relative = Path(SNAPSHOT_DIR) / f"{uuid.uuid4().hex}.parquet"
        _write_parquet(self.current, self.workspace / relative)
        return relative.as_posix()

    def read_snapshot(self, path: str) -> pd.DataFrame:
        return freeze_arrays(pd.read_parquet(self.workspace / path))

    def save_current(self) -> None:
        """Keep a copy of the current data and the position it reflects, to skip replay later."""
        directory = self.workspace / SNAPSHOT_DIR
        _write_parquet(self.current, directory / CURRENT)
        meta = {"position": self.position, "labels": self.labels, "recipe": self.recipe}
        _write_atomic(directory / CURRENT_META, json.dumps(meta, ensure_ascii=False).encode())

    # --- rebuilding after a restart ---

    def rebuild(self, steps: list[AppliedStep]) -> None:
        """Bring the current data to the last step: from the saved copy if it is current, else replay."""
        last = steps[-1].position if steps else 0
        if self._load_saved(last):
            return
        start = max((i for i, step in enumerate(steps) if step.step_type in STATE_COMMANDS), default=-1)
        if start >= 0 and steps[start].step_type == RESTORE:
            parameters = steps[start].parameters
            path, name = str(parameters["path"]), str(parameters.get("name", ""))
            self.restore(self.read_snapshot(path), name=name, path=path, position=steps[start].position)
        else:
            self.current, self.labels, self.recipe = self.original, [], []
            self.position = steps[start].position if start >= 0 else 0
        for step in steps[start + 1 :]:
            try:
                self.apply(step.step_type, step.parameters, position=step.position)
            except ToolRetry:
                continue  # a step that failed when it ran changed nothing then either
        self.position = last
        self._info = None
        self.save_current()

    def _load_saved(self, position: int) -> bool:
        directory = self.workspace / SNAPSHOT_DIR
        try:
            meta = json.loads((directory / CURRENT_META).read_text(encoding="utf-8"))
            if meta.get("position") != position:
                return False
            self.current = freeze_arrays(pd.read_parquet(directory / CURRENT))
        except (OSError, ValueError):
            return False
        self.position = position
        self.labels = list(meta.get("labels", []))
        self.recipe = list(meta.get("recipe", []))
        self._info = None
        return True


def _write_parquet(frame: pd.DataFrame, path: Path) -> None:
    with host_writes(path.parent):
        partial = path.with_name(f".{path.name}.partial")
        frame.to_parquet(partial, index=False)
        partial.chmod(0o444)  # like data/: the session's record of its data, not something to edit
        os.replace(partial, path)


def _write_atomic(path: Path, data: bytes) -> None:
    with host_writes(path.parent):
        partial = path.with_name(f".{path.name}.partial")
        partial.write_bytes(data)
        partial.chmod(0o444)
        os.replace(partial, path)

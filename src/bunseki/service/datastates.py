"""The data-state half of `AnalysisService`: steps, snapshots, restore, reset, overview and exports.

The current data, its snapshots and its overview, over the store and the session's
`DataState`; `AnalysisService` provides the lock and the state these methods work under.
"""

from __future__ import annotations

import tempfile
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any, Literal

import pandas as pd

from bunseki.data.nested import as_text
from bunseki.errors import NotFound, SnapshotNameTaken
from bunseki.sandbox.workspace import host_writes
from bunseki.service.files import OpenFile, open_in_workspace
from bunseki.service.inputs import checked_text
from bunseki.service.views import ArtifactView, ReportView, SnapshotView, StepView
from bunseki.state import RESET, RESTORE, DataState
from bunseki.store import SessionRecord, Store

ReportFormat = Literal["md", "html", "ipynb"]
DataFormat = Literal["csv", "parquet"]


class DataOperations:
    """Steps, snapshots and exports of a session's data; mixed into `AnalysisService`."""

    store: Store

    def _session_lock(self, session_id: str) -> AbstractContextManager[None]:
        raise NotImplementedError  # AnalysisService: turns and data changes of a session never overlap

    def _current_state(self, record: SessionRecord) -> DataState:
        raise NotImplementedError  # AnalysisService: the open runtime's state, or one rebuilt from the store

    def steps(self, session_id: str, *, user_id: str | None = None) -> list[StepView]:
        self.store.get_session(session_id, user_id=user_id)
        return [StepView.of(step) for step in self.store.list_steps(session_id)]

    def turn_steps(self, session_id: str, turn_id: str) -> list[StepView]:
        """The steps one turn executed, in order."""
        return [StepView.of(step) for step in self.store.list_steps(session_id) if step.turn_id == turn_id]

    def artifacts(self, session_id: str, *, user_id: str | None = None) -> list[ArtifactView]:
        self.store.get_session(session_id, user_id=user_id)
        return [ArtifactView.of(artifact) for artifact in self.store.list_artifacts(session_id)]

    def open_artifact(self, session_id: str, name: str, *, user_id: str | None = None) -> OpenFile:
        """A recorded artifact or report file, open, and never anything outside the workspace.

        Code in the sandbox can leave symbolic links in the workspace, so the name must be one the
        session recorded and the file is opened without following any link on the way to it.
        """
        record = self.store.get_session(session_id, user_id=user_id)
        recorded = {artifact.path for artifact in self.store.list_artifacts(session_id)}
        for report in self.store.list_reports(session_id):
            recorded.update(p for p in (report.markdown_path, report.html_path, report.notebook_path) if p)
        missing = f"this session has no artifact '{name}'"
        if name not in recorded:
            raise NotFound(missing)
        return open_in_workspace(record.workspace, name, missing=missing)

    def reports(self, session_id: str, *, user_id: str | None = None) -> list[ReportView]:
        self.store.get_session(session_id, user_id=user_id)
        return [ReportView.of(report) for report in self.store.list_reports(session_id)]

    # --- data state --------------------------------------------------------------------------

    def data_state(self, session_id: str, *, user_id: str | None = None, language: str = "ja") -> dict[str, Any]:
        """The overview of the current data and its state in a line."""
        state = self._current_state(self.store.get_session(session_id, user_id=user_id))
        frame = state.current
        numeric = [str(c) for c in frame.select_dtypes("number").columns]
        dates = [str(c) for c in frame.select_dtypes(["datetime", "datetimetz"]).columns]
        return {
            "state": state.describe(language),
            "is_original": state.is_original,
            "steps": list(state.labels),
            "rows": int(frame.shape[0]),
            "column_count": int(frame.shape[1]),
            "columns": [str(c) for c in frame.columns],
            "dtypes": {str(k): str(v) for k, v in frame.dtypes.items()},
            "numeric_columns": numeric,
            "datetime_columns": dates,
            "categorical_columns": [str(c) for c in frame.columns if str(c) not in numeric and str(c) not in dates],
            "memory_bytes": int(frame.memory_usage(deep=True).sum()),
            "original_rows": int(state.original.shape[0]),
            "notes": state.note_texts(language),
            "sheet": state.sheet,
            "sheets": list(state.sheets),
        }

    def preview(self, session_id: str, rows: int = 20, *, user_id: str | None = None) -> pd.DataFrame:
        """The first ``rows`` rows of the current data (a copy), lists and records shown as text."""
        state = self._current_state(self.store.get_session(session_id, user_id=user_id))
        return as_text(state.current.head(max(rows, 0)).copy())

    def snapshot(self, session_id: str, name: str, *, user_id: str | None = None) -> SnapshotView:
        """Save the current data under ``name`` (a Parquet file in the workspace)."""
        record = self.store.get_session(session_id, user_id=user_id)
        name = checked_text(name, "a snapshot name").strip()  # "a" and "a " would look like one name
        with self._session_lock(session_id):
            if self.store.snapshot_named(session_id, name) is not None:
                raise SnapshotNameTaken(name)  # before any file or step is written
            state = self._current_state(record)
            path = state.write_snapshot()
            frame = state.current
            position = self.store.add_step(
                session_id=session_id,
                step_type="snapshot",
                parameters={"name": name, "path": path},
                result={"rows": len(frame), "columns": len(frame.columns)},
            ).position
            saved = self.store.add_snapshot(
                session_id=session_id,
                name=name,
                path=path,
                rows=len(frame),
                columns=len(frame.columns),
                step_position=position,
            )
            return SnapshotView.of(saved)

    def snapshots(self, session_id: str, *, user_id: str | None = None) -> list[SnapshotView]:
        self.store.get_session(session_id, user_id=user_id)
        return [SnapshotView.of(snapshot) for snapshot in self.store.list_snapshots(session_id)]

    def restore(self, session_id: str, snapshot_id: str, *, user_id: str | None = None) -> StepView:
        """Make a snapshot the current data again; recorded as a step."""
        record = self.store.get_session(session_id, user_id=user_id)
        snapshot = self.store.get_snapshot(session_id, snapshot_id)
        with self._session_lock(session_id):
            state = self._current_state(record)
            frame = state.read_snapshot(snapshot.path)
            step = self.store.add_step(
                session_id=session_id,
                step_type=RESTORE,
                parameters={"snapshot_id": snapshot.id, "name": snapshot.name, "path": snapshot.path},
                result={"rows": len(frame)},
                rows_before=len(state.current),
                rows_after=len(frame),
                changes_data=True,
            )
            state.restore(frame, name=snapshot.name, path=snapshot.path, position=step.position)
            return StepView.of(step)

    def find_snapshot(self, session_id: str, ref: str, *, user_id: str | None = None) -> SnapshotView:
        """A snapshot by name (unique in a session), id, or unique id prefix."""
        snapshots = self.snapshots(session_id, user_id=user_id)
        named = [snapshot for snapshot in snapshots if snapshot.name == ref]
        if named:
            return named[0]
        found = [snapshot for snapshot in snapshots if len(ref) >= 4 and snapshot.id.startswith(ref.lower())]
        if len(found) == 1:
            return found[0]
        names = ", ".join(snapshot.name for snapshot in snapshots) or "none yet"
        raise NotFound(f"there is no snapshot '{ref}' in this session (snapshots: {names})")

    def delete_snapshot(self, session_id: str, snapshot_id: str, *, user_id: str | None = None) -> SnapshotView:
        """Forget a snapshot; its file stays while the current data was restored from it (for replay)."""
        record = self.store.get_session(session_id, user_id=user_id)
        snapshot = self.store.get_snapshot(session_id, snapshot_id)
        with self._session_lock(session_id):
            self.store.delete_snapshot(session_id, snapshot.id)
            bases = [step for step in self.store.list_steps(session_id) if step.step_type in (RESET, RESTORE)]
            if not (
                bases and bases[-1].step_type == RESTORE and bases[-1].parameters.get("snapshot_id") == snapshot.id
            ):
                path = Path(record.workspace) / snapshot.path
                with host_writes(path.parent):
                    path.unlink(missing_ok=True)
        return SnapshotView.of(snapshot)

    def reset(self, session_id: str, *, user_id: str | None = None) -> StepView:
        """Back to the data as uploaded; recorded as a step."""
        record = self.store.get_session(session_id, user_id=user_id)
        with self._session_lock(session_id):
            state = self._current_state(record)
            step = self.store.add_step(
                session_id=session_id,
                step_type=RESET,
                parameters={},
                result={"rows": len(state.original)},
                rows_before=len(state.current),
                rows_after=len(state.original),
                changes_data=True,
            )
            state.reset(position=step.position)
            return StepView.of(step)

    # --- exports -----------------------------------------------------------------------------

    def open_report(
        self, session_id: str, fmt: ReportFormat, *, user_id: str | None = None, report_id: str | None = None
    ) -> OpenFile:
        """The latest report (or ``report_id``) in the given format, open."""
        record = self.store.get_session(session_id, user_id=user_id)
        reports = self.store.list_reports(session_id)
        chosen = (
            next((r for r in reports if r.id == report_id), None) if report_id else (reports[-1] if reports else None)
        )
        if chosen is None:
            raise NotFound("this session has no report yet: ask a question first")
        relative = {"md": chosen.markdown_path, "html": chosen.html_path, "ipynb": chosen.notebook_path}[fmt]
        if relative is None:
            raise NotFound(f"the report has no {fmt} version")
        return open_in_workspace(record.workspace, relative, missing=f"the report's {fmt} file is gone")

    def open_data(self, session_id: str, fmt: DataFormat, *, user_id: str | None = None) -> OpenFile:
        """The current data as CSV (UTF-8 with BOM, which Excel reads) or Parquet, in an open temporary file.

        Written outside the workspace: a name in it could be a link that cell code planted.
        """
        record = self.store.get_session(session_id, user_id=user_id)
        frame = self._current_state(record).current
        handle = tempfile.TemporaryFile(prefix="bunseki-export-")  # noqa: SIM115 - handed over open
        try:
            if fmt == "csv":
                frame.to_csv(handle, index=False, encoding="utf-8-sig")
            else:
                frame.to_parquet(handle, index=False)
            handle.seek(0)
            return OpenFile.of(handle, f"{Path(record.dataset_name).stem}_current.{fmt}")
        except BaseException:
            handle.close()
            raise

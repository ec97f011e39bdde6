"""Investigations in the background, for the API and the UI: upload a case archive, follow, read.

Each run is a folder under ``<workspace root>/investigation_runs/<id>/``: ``record.json`` (who,
what, where it stands), ``events.jsonl`` (progress, appended as the agents work), ``case/``
(the unpacked upload), ``work/`` (the investigator's workspace, the only part a sandbox writes)
and ``result.json`` at the end. Files rather than store rows: any process on the host can follow
a run by reading its event log, and a run's files go with its folder. One worker thread runs
investigations one at a time (each holds a sandbox); later uploads wait their turn as ``queued``.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path, PurePosixPath
from typing import Any, BinaryIO, Literal

from bunseki.brain.factory import create_investigator_brain
from bunseki.brain.investigator.contract import InvestigatorBrain
from bunseki.domain import (
    FINISHED,
    DatasetProgress,
    Event,
    InvestigationRun,
    InvestigationStatus,
    InvestigationSummary,
    TurnUsage,
)
from bunseki.errors import BunsekiError, CaseArchiveError, Conflict, NotFound
from bunseki.investigation.archive import ArchiveLimits, extract_case
from bunseki.investigation.case import Case, load_case
from bunseki.report.save import write_atomically
from bunseki.sandbox.backend import SandboxBackend
from bunseki.service.files import OpenFile, open_in_workspace
from bunseki.service.inputs import write_limited
from bunseki.service.investigations import InvestigationService
from bunseki.settings import Settings
from bunseki.tracing import TurnRecorder

ReportFormat = Literal["md", "html"]
POLL_SECONDS = 0.2
INTERRUPTED = "the server stopped before this investigation finished; upload the case again"


class InvestigationRuns:
    """Start investigations from uploaded archives and read them; ``user_id`` None means every user's."""

    def __init__(
        self,
        settings: Settings,
        *,
        brains: Callable[[str], InvestigatorBrain] | None = None,
        limits: ArchiveLimits | None = None,
        investigator: InvestigationService | None = None,
        backend: SandboxBackend | None = None,
    ) -> None:
        """``backend``: where the investigations' sandboxes run (default: the configured one, per run)."""
        self.settings = settings
        self.root = settings.workspace_root / "investigation_runs"
        self.limits = limits or ArchiveLimits()
        self._brains = brains or (lambda spec: create_investigator_brain(spec, settings))
        self._investigator = investigator or InvestigationService(settings, backend=backend)
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="bunseki-investigation")
        self._queued: dict[str, Future[None]] = {}
        self._lock = threading.Lock()

    def close(self) -> None:
        """Finish the running investigation; those still queued are marked as interrupted."""
        self._worker.shutdown(wait=False, cancel_futures=True)
        with self._lock:
            queued = list(self._queued.items())
        for run_id, future in queued:
            if future.cancelled():
                self._update(run_id, status="error", error=INTERRUPTED)
        self._worker.shutdown(wait=True)

    def available_models(self) -> list[str]:
        """Model specs worth offering in a picker (offline first)."""
        from bunseki.llm import available_models

        return available_models(self.settings)

    def __enter__(self) -> InvestigationRuns:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    # --- starting ---

    def start_from_upload(
        self, file_name: str | None, stream: BinaryIO, *, model: str | None = None, user_id: str | None = None
    ) -> InvestigationRun:
        """Unpack and check the archive (before any work), then queue its investigation.

        Raises:
            UploadTooLarge: the upload or what it unpacks to is over the limits.
            UnsupportedFileType: not a zip or tar(.gz) archive.
            CaseArchiveError: a member escapes the archive or is a link or device; no manifest.
            CaseError: the manifest or a file it names cannot be used.
            ConfigurationError: the model spec cannot be served.
        """
        spec = model or self.settings.model
        brain = self._brains(spec)  # a bad model spec fails before anything is kept
        run_id = uuid.uuid4().hex
        folder = self.root / run_id
        try:
            folder.mkdir(parents=True)
            with tempfile.TemporaryDirectory(prefix="bunseki-case-") as directory:
                upload = Path(directory) / "upload"
                write_limited(upload, stream, self.settings.max_upload_mb << 20)
                manifest = extract_case(upload, folder / "case", self.limits)
            case = _contained(load_case(manifest), folder / "case")
            now = _now()
            record = {
                "investigation_id": run_id,
                "user_id": user_id,
                "case": case.name,
                "source": PurePosixPath((file_name or "case").replace("\\", "/")).name[:200] or "case",
                "model": spec,
                "status": "queued",
                "error": None,
                "created_at": now,
                "updated_at": now,
                "manifest": str(manifest.relative_to(folder)),
                "datasets": [ds.name for ds in case.datasets],
                "pid": os.getpid(),
            }
            write_atomically(folder / "record.json", json.dumps(record, ensure_ascii=False))
            (folder / "events.jsonl").touch()
        except BaseException:
            shutil.rmtree(folder, ignore_errors=True)
            raise
        with self._lock:
            self._queued[run_id] = self._worker.submit(self._investigate, run_id, brain)
        return self.get(run_id, user_id=user_id)

    def _investigate(self, run_id: str, brain: InvestigatorBrain) -> None:
        folder = self.root / run_id
        record = self._update(run_id, status="running")
        log = (folder / "events.jsonl").open("a", encoding="utf-8")

        def on_event(event: Event) -> None:
            log.write(json.dumps(event, ensure_ascii=False, default=str) + "\n")
            log.flush()

        recorder = TurnRecorder()  # what its model calls cost, kept in record.json however it ends
        try:
            (folder / "work").mkdir(exist_ok=True)
            view = self._investigator.run(
                folder / record["manifest"],
                brain=brain,
                on_event=on_event,
                workspace=folder / "work",
                recorder=recorder,
            )
            result = view.as_dict() | {"dataset_reports": view.dataset_reports}
            write_atomically(folder / "result.json", json.dumps(result, ensure_ascii=False))
            self._update(run_id, status=view.status, error=view.error, spent=_spent(view.usage, view.trace))
        except Exception as exc:  # a bug or a crash in a node too: the run is marked, the error shown
            error = str(exc) if isinstance(exc, BunsekiError) else f"{type(exc).__name__}: {exc}"
            usage = recorder.usage(brain.name, self.settings.llm_prices)
            trace = recorder.trace(model=brain.name, status="error", error=error)
            self._update(run_id, status="error", error=error, spent=_spent(usage, trace))
        finally:
            log.close()
            with self._lock:
                self._queued.pop(run_id, None)

    # --- reading ---

    def get(self, run_id: str, *, user_id: str | None = None) -> InvestigationRun:
        record = self._record(run_id, user_id)
        stage, datasets = progress_of(record["datasets"], list(self._events(run_id)))
        result = self._result(record)
        if result is not None:
            result = {key: value for key, value in result.items() if key != "dataset_reports"}
        return InvestigationRun(**_summary_fields(record), stage=stage, datasets=datasets, result=result)

    def list(self, *, user_id: str | None = None) -> list[InvestigationSummary]:
        """Investigations, newest first."""
        records = []
        if self.root.is_dir():
            for folder in self.root.iterdir():
                try:
                    records.append(self._record(folder.name, user_id))
                except NotFound:
                    continue
        records.sort(key=lambda r: r["created_at"], reverse=True)
        return [InvestigationSummary(**_summary_fields(r)) for r in records]

    def follow(self, run_id: str, on_event: Callable[[Event], None], *, user_id: str | None = None) -> InvestigationRun:
        """Every progress event so far and then as it comes, until the run ends; the run as it ended."""
        record = self._record(run_id, user_id)
        on_event({"event": "status", "status": record["status"], "investigation_id": run_id})
        offset = 0
        while True:
            finished = self._record(run_id, user_id)["status"] in FINISHED  # read before the log: nothing missed
            with (self.root / run_id / "events.jsonl").open("rb") as log:
                log.seek(offset)
                data = log.read()
            complete = data[: data.rfind(b"\n") + 1]
            offset += len(complete)
            for line in complete.splitlines():
                on_event(json.loads(line))
            if finished:
                return self.get(run_id, user_id=user_id)
            time.sleep(POLL_SECONDS)

    def wait(self, run_id: str, *, user_id: str | None = None) -> InvestigationRun:
        """Block until the run ends (tests, scripts); the run as it ended."""
        return self.follow(run_id, lambda _event: None, user_id=user_id)

    def result(self, run_id: str, *, user_id: str | None = None) -> dict[str, Any]:
        """The CLI's JSON contract for a finished run; Conflict while it is queued or running."""
        record = self._record(run_id, user_id)
        result = self._result(record)
        if result is None:
            raise Conflict(f"investigation {run_id} is {record['status']}; its result is not there yet")
        return result

    def report_file(
        self, run_id: str, report_format: ReportFormat, *, dataset: str | None = None, user_id: str | None = None
    ) -> OpenFile:
        """The summary report, or one dataset's, as Markdown or HTML."""
        result = self.result(run_id, user_id=user_id)
        if dataset is None:
            relative = f"reports/investigation.{report_format}"
        else:
            markdown = result.get("dataset_reports", {}).get(dataset)
            if markdown is None:
                raise NotFound(f"investigation {run_id} has no dataset {dataset!r}")
            relative = PurePosixPath(markdown).with_suffix(f".{report_format}").as_posix()
        return open_in_workspace(
            str(self.root / run_id / "work"), relative, missing=f"investigation {run_id} has no report {relative}"
        )

    def chart(self, run_id: str, path: str, *, user_id: str | None = None) -> OpenFile:
        """A chart the investigation drew, by its path in the result (``charts/…png``)."""
        result = self.result(run_id, user_id=user_id)
        missing = f"investigation {run_id} has no chart {path}"
        if path not in {chart for ds in result.get("datasets", []) for chart in ds.get("charts", [])}:
            raise NotFound(missing)
        return open_in_workspace(str(self.root / run_id / "work"), path, missing=missing)

    def delete(self, run_id: str, *, user_id: str | None = None) -> None:
        """Forget a finished investigation and its files; Conflict while it is queued or running."""
        record = self._record(run_id, user_id)
        if record["status"] not in FINISHED:
            raise Conflict(f"investigation {run_id} is {record['status']}; delete it once it has finished")
        from bunseki.sandbox.workspace import remove_workspace

        remove_workspace(self.root / run_id / "work")
        shutil.rmtree(self.root / run_id, ignore_errors=True)

    # --- the files of a run ---

    def _record(self, run_id: str, user_id: str | None) -> dict[str, Any]:
        missing = NotFound(f"there is no investigation {run_id} here; list the investigations to find its id")
        if not (len(run_id) == 32 and all(c in "0123456789abcdef" for c in run_id)):
            raise missing
        try:
            record: dict[str, Any] = json.loads((self.root / run_id / "record.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            raise missing from None
        if user_id is not None and record.get("user_id") != user_id:
            raise missing
        if record["status"] not in FINISHED and record.get("pid") != os.getpid() and not _alive(record.get("pid")):
            record = self._update(run_id, status="error", error=INTERRUPTED)
        return record

    def _update(
        self, run_id: str, *, status: InvestigationStatus, error: str | None = None, spent: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        """Record where the run stands; ``spent``: its usage and trace, once it has ended."""
        with self._lock:
            path = self.root / run_id / "record.json"
            record: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
            record.update(status=status, error=error, updated_at=_now(), **(spent or {}))
            write_atomically(path, json.dumps(record, ensure_ascii=False))
            return record

    def _events(self, run_id: str) -> Iterator[Event]:
        try:
            with (self.root / run_id / "events.jsonl").open(encoding="utf-8") as log:
                for line in log:
                    if line.endswith("\n"):
                        yield json.loads(line)
        except OSError:
            return

    def _result(self, record: dict[str, Any]) -> dict[str, Any] | None:
        """The finished run's result; for a run that failed before the investigator returned, one saying so."""
        if record["status"] not in FINISHED:
            return None
        try:
            path = self.root / record["investigation_id"] / "result.json"
            result: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {
                "status": "error",
                "case": record["case"],
                "datasets": [],
                "summary": "",
                "report_path": None,
                "workspace_dir": None,
                "error": record.get("error") or "the investigation left no result",
            }
        return result


def _contained(case: Case, root: Path) -> Case:
    """The case, if every file its manifest names is inside the uploaded archive.

    A manifest may say ``../`` or give an absolute path; on a server that would read another
    investigation's files, or the server's own, into this one's workspace and reports.
    """
    inside = root.resolve()
    named = [*case.specs, *case.codes, *case.env_specs, *case.env_codes, case.entry_file]
    named += [path for ds in case.datasets for path in (ds.output_csv, ds.core_csv)]
    for path in named:
        if not path.resolve().is_relative_to(inside):
            raise CaseArchiveError(f"the manifest names {path.name}, which is outside the archive; refused")
    return case


def _spent(usage: TurnUsage | None, trace: dict[str, Any] | None) -> dict[str, Any]:
    return {"usage": usage.model_dump(mode="json") if usage else None, "trace": trace}


def progress_of(names: list[str], events: list[dict[str, Any]]) -> tuple[str | None, list[DatasetProgress]]:
    """The last agent overall and each dataset's progress, from the run's events in order."""
    datasets = {name: DatasetProgress(name=name) for name in names}
    stage: str | None = None
    for event in events:
        if event.get("event") != "node_started":
            continue
        stage = str(event.get("node"))
        entry = datasets.get(str(event.get("dataset")))
        if entry is None:
            continue
        entry.agent = stage
        entry.iteration = int(event.get("iteration") or entry.iteration)
        entry.done = entry.done or stage == "reporter"
    return stage, list(datasets.values())


def _summary_fields(record: dict[str, Any]) -> dict[str, Any]:
    keys = InvestigationSummary.model_fields
    return {key: value for key, value in record.items() if key in keys}


def _now() -> str:
    return datetime.now(UTC).isoformat()


def _alive(pid: object) -> bool:
    """Whether the process that queued a run still exists (a run of a stopped server never ends)."""
    if not isinstance(pid, int):
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True

"""`EdaService`: runs of the EDA pipeline that pause at two reviews and resume anywhere.

A run is a row in the store (who, which file, where it stands) and the graph's checkpoints in
the same database, keyed by the run's id. Each call runs the graph to its next review or its
end and returns the run in full; a resume from another process, days later, continues from the
checkpoint. Only one process resumes a run at a time: the status moves from a review to
``running`` in one transaction, and a second resume finds it no longer waiting (Conflict).
"""

from __future__ import annotations

import contextlib
import tempfile
from collections.abc import Callable
from pathlib import Path, PurePosixPath
from typing import Any, BinaryIO, Literal

from langchain_core.runnables import RunnableConfig
from langgraph.types import Command

from bunseki.agents import eda
from bunseki.brain.eda.contract import EdaBrain
from bunseki.brain.factory import create_eda_brain
from bunseki.brain.language import detect_language
from bunseki.deadline import turn_deadline
from bunseki.domain import EdaReview, EdaRun, EdaRunDetails, EdaRunSummary, EdaStatus, Event
from bunseki.errors import BunsekiError, Conflict, InputError, NotFound
from bunseki.llm import available_models
from bunseki.sandbox import add_data_file, backends, new_workspace
from bunseki.sandbox.backend import SandboxBackend, SessionSandbox
from bunseki.sandbox.workspace import remove_workspace
from bunseki.service.files import OpenFile, open_in_workspace
from bunseki.service.inputs import checked_text, upload_name, write_limited
from bunseki.settings import Settings
from bunseki.store import Store
from bunseki.store.checkpoints import open_checkpointer
from bunseki.tracing import TurnRecorder, flush_tracers, turn_config

ReportFormat = Literal["md", "html", "ipynb"]
WAITING: dict[str, EdaStatus] = {"plan": "awaiting_plan_review", "results": "awaiting_results_review"}


class EdaService:
    """Start, resume, list and read EDA runs; the store may be shared with the analysis service."""

    def __init__(
        self,
        settings: Settings | None = None,
        *,
        store: Store | None = None,
        brains: Callable[[str], EdaBrain] | None = None,
        backend: SandboxBackend | None = None,
    ) -> None:
        """``backend``: where runs' sandboxes run (the analysis service's, in a server; else one of its own)."""
        self.settings = settings or Settings()
        self._owns_store = store is None
        self.store = store or Store.from_settings(self.settings)
        self.brains = brains or (lambda spec: create_eda_brain(spec, self.settings))
        self._exits = contextlib.ExitStack()
        self._checkpointer = self._exits.enter_context(
            open_checkpointer(self.settings.database, types=eda.STATE_TYPES, formerly=eda.FORMER_NAMES)
        )
        self._graph = eda.build(checkpointer=self._checkpointer)
        self._owns_backend = backend is None
        self.backend = backend or backends.create(self.settings, warm=False)

    def __enter__(self) -> EdaService:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def close(self) -> None:
        self._exits.close()
        if self._owns_backend:
            self.backend.close()
        if self._owns_store:
            self.store.close()

    def available_models(self) -> list[str]:
        """Model specs worth offering in a picker (offline first)."""
        return available_models(self.settings)

    # --- runs ---

    def start(
        self,
        data_file: Path,
        *,
        goal: str | None = None,
        model: str | None = None,
        user_id: str | None = None,
        on_event: Callable[[Event], None] | None = None,
        sheet: str | None = None,
    ) -> EdaRunDetails:
        """A new run on ``data_file``: validated, profiled and planned, then paused at the plan review.

        ``sheet``: the sheet of a workbook (default: the one whose columns the goal names, else the first).
        """
        if not data_file.is_file():
            raise InputError(f"{data_file} is not a file; give the path of a CSV, TSV, Excel or Parquet file")
        upload_name(data_file.name)  # the same file types as everywhere else, refused early
        goal = checked_text(goal, "the goal").strip() if goal else None
        sheet = checked_text(sheet, "the sheet name") if sheet else None
        spec = model or self.settings.model
        brain = self.brains(spec)  # a bad model spec fails before anything is created
        workspace = new_workspace(self.settings.workspace_root / "eda")
        copy = add_data_file(workspace, data_file)
        run = self.store.create_eda_run(
            source=data_file.name, workspace=str(workspace), goal=goal, model=spec, user_id=user_id
        )
        state = eda.EdaState(
            raw_data_path=PurePosixPath("data", copy.name).as_posix(),
            analysis_params={"goal": goal, "source": data_file.name, "model": spec, "sheet": sheet},
            language=detect_language(goal) if goal else "ja",
        )
        return self._run(run, state, brain, on_event, call="start")

    def start_from_upload(
        self,
        file_name: str | None,
        stream: BinaryIO,
        *,
        goal: str | None = None,
        model: str | None = None,
        user_id: str | None = None,
        on_event: Callable[[Event], None] | None = None,
        sheet: str | None = None,
    ) -> EdaRunDetails:
        """A run on uploaded bytes named ``file_name`` (a browser or API upload); as `start`."""
        name = upload_name(file_name)
        with tempfile.TemporaryDirectory(prefix="bunseki-upload-") as directory:
            path = Path(directory) / name
            write_limited(path, stream, self.settings.max_upload_mb << 20)
            return self.start(path, goal=goal, model=model, user_id=user_id, on_event=on_event, sheet=sheet)

    def resume(
        self,
        run_id: str,
        answer: eda.Answer | dict[str, Any],
        *,
        user_id: str | None = None,
        on_event: Callable[[Event], None] | None = None,
    ) -> EdaRunDetails:
        """Answer the review the run waits at, and run on to the next review or the end.

        Raises:
            NotFound: no such run (or not ``user_id``'s).
            Conflict: the run is not waiting for a review (running elsewhere, or finished), or
                feedback after the last round of feedback allowed.
            InputError: the answer is not approve, feedback with text, or stop.
        """
        parsed = answer if isinstance(answer, eda.Answer) else eda.parse(answer)
        run = self.store.get_eda_run(run_id, user_id=user_id)
        _, shown = self._read(run_id)
        if run.status not in WAITING.values() or shown is None:
            raise Conflict(f"EDA run {run_id} is {run.status.replace('_', ' ')}, not waiting for a review.")
        if parsed.action == "feedback" and not shown.get("feedback_allowed", True):
            raise Conflict(f"EDA run {run_id} has had all the rounds of feedback it allows; approve or stop.")
        claimed = self.store.claim_eda_run(run_id, expected=run.status)
        answered: Command[Any] = Command(resume=parsed.model_dump())
        return self._run(claimed, answered, self.brains(run.model), on_event, call=f"resume ({parsed.action})")

    def get(self, run_id: str, *, user_id: str | None = None) -> EdaRunDetails:
        run = self.store.get_eda_run(run_id, user_id=user_id)
        return details_of(run, *self._read(run_id))

    def trace(self, run_id: str, *, user_id: str | None = None) -> list[dict[str, Any]]:
        """The traces of the calls that advanced the run (start, each resume), oldest first.

        NotFound when it has none: still running its first call, or recorded before traces were kept."""
        run = self.store.get_eda_run(run_id, user_id=user_id)
        if not run.trace:
            raise NotFound(f"EDA run {run_id} has no trace: it is {run.status.replace('_', ' ')} and has recorded none")
        return run.trace

    def list(self, *, user_id: str | None = None) -> list[EdaRunSummary]:
        return [EdaRunSummary.model_validate(run) for run in self.store.list_eda_runs(user_id=user_id)]

    def delete(self, run_id: str, *, user_id: str | None = None) -> None:
        """Forget the run: its row, its checkpoints and its workspace."""
        run = self.store.delete_eda_run(run_id, user_id=user_id)
        self._checkpointer.delete_thread(run_id)
        remove_workspace(Path(run.workspace))

    def report_file(self, run_id: str, report_format: ReportFormat, *, user_id: str | None = None) -> OpenFile:
        run = self.store.get_eda_run(run_id, user_id=user_id)
        state, _ = self._read(run_id)
        path = state.report_paths.get(report_format) if state else None
        if path is None:
            raise Conflict(f"EDA run {run_id} has no report yet; it is {run.status.replace('_', ' ')}.")
        return open_in_workspace(run.workspace, path, missing=f"The report of EDA run {run_id} is missing.")

    def artifact(self, run_id: str, path: str, *, user_id: str | None = None) -> OpenFile:
        """A file a step wrote (a chart), by its path relative to the run's workspace."""
        run = self.store.get_eda_run(run_id, user_id=user_id)
        state, _ = self._read(run_id)
        missing = f"EDA run {run_id} has no file {path}."
        if state is None or path not in state.generated_files:
            raise NotFound(missing)
        return open_in_workspace(run.workspace, path, missing=missing)

    def pending(self, run_id: str) -> dict[str, Any] | None:
        """What the review the run waits at shows (None when it waits for none)."""
        return self._read(run_id)[1]

    # --- running the graph ---

    def _run(
        self,
        run: EdaRun,
        start: eda.EdaState | Command[Any],
        brain: EdaBrain,
        on_event: Callable[[Event], None] | None,
        *,
        call: str,
    ) -> EdaRunDetails:
        """Run the graph to its next review or its end; what this call's model calls cost is added to
        the run's usage, and its trace (named ``call``) to the run's traces, however it ends."""
        sandboxes: list[SessionSandbox] = []
        workspace = Path(run.workspace)

        def sandbox() -> SessionSandbox:
            if not sandboxes:
                box = SessionSandbox(self.backend, f"eda-{run.run_id}", workspace)
                sandboxes.append(box)
                box.start()
            return sandboxes[0]

        context = eda.EdaContext(
            brain=brain, workspace=workspace, sandbox=sandbox, max_upload_bytes=self.settings.max_upload_mb << 20
        )
        recorder = TurnRecorder()
        config: RunnableConfig = {**_config(run.run_id), **turn_config(recorder, bunseki_eda_run=run.run_id)}
        listen = recorder.relay(on_event)

        def spent(status: str, error: str | None) -> dict[str, Any]:
            trace = recorder.trace(model=brain.name, status=status, error=error)
            return {"usage": recorder.usage(brain.name, self.settings.llm_prices), "trace": {"call": call, **trace}}

        try:
            with turn_deadline(self.settings.turn_deadline_s):
                for event in self._graph.stream(start, config, context=context, stream_mode="custom"):
                    listen(dict(event))
        except Exception as exc:  # also a bug or a crash in a node: the run is kept, marked, and the error shown
            error = str(exc) if isinstance(exc, BunsekiError) else f"{type(exc).__name__}: {exc}"
            self.store.set_eda_status(run.run_id, "error", error=error, **spent("error", error))
            raise
        finally:
            for box in sandboxes:
                box.close()
            flush_tracers()
        state, shown = self._read(run.run_id)
        status: EdaStatus = WAITING[shown["review"]] if shown else (state.status if state else "error")
        if status == "running":  # the graph ended without saying how: only a stop at a review does that
            status = "stopped"
        ended = state.error_message if state else None
        updated = self.store.set_eda_status(run.run_id, status, error=ended, **spent(status, ended))
        return details_of(updated, state, shown)

    def _read(self, run_id: str) -> tuple[eda.EdaState | None, dict[str, Any] | None]:
        """The run's graph state and what the review it waits at shows, from one checkpoint read."""
        snapshot = self._graph.get_state(_config(run_id))
        state = eda.EdaState.model_validate(snapshot.values) if snapshot.values else None
        shown = next((dict(pause.value) for pause in snapshot.interrupts), None)
        return state, shown


def _config(run_id: str) -> RunnableConfig:
    return {"configurable": {"thread_id": run_id}, "recursion_limit": eda.RECURSION_LIMIT}


def details_of(run: EdaRun, state: eda.EdaState | None, shown: dict[str, Any] | None) -> EdaRunDetails:
    """The run in full: its stored row, its graph state (workspace paths made absolute) and the
    review it waits at."""
    if state is None:
        return EdaRunDetails.model_validate(run)
    base = run.workspace.rstrip("/")
    files = {kind: f"{base}/{path}" for kind, path in state.report_paths.items()}
    return EdaRunDetails.model_validate(
        run.model_dump()
        | {
            "review": EdaReview.model_validate(shown) if shown else None,
            "problems": state.problems,
            "plan": state.analysis_plan,
            "findings": state.findings,
            "profile": state.profile,
            "report_path": files.get("md"),
            "report_markdown": state.report_content or None,
            "report_files": files,
            "artifacts": [f"{base}/{path}" for path in state.generated_files],
            "executions": [state.outcomes[key] for key in sorted(state.outcomes, key=int)],
            "error": run.error or state.error_message,
        }
    )

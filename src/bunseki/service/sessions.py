"""`AnalysisService`: stateful analysis sessions, as the CLI, the API and the UI all use them.

A session is a data file in a workspace, rows in the store (messages, steps, snapshots,
reports) and, while it is open, a sandbox (through the service's one backend). Everything is
committed as it happens: a turn is recorded as running before it starts, each step when it is
applied, the answer when it is written. A turn that was running in a process that no longer
exists is marked interrupted the next time the session is opened, and the data state is rebuilt
from the recorded steps.
"""

from __future__ import annotations

import dataclasses
import io
import tempfile
import threading
import uuid
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any, BinaryIO

from langchain_core.messages import AnyMessage, HumanMessage

from bunseki.brain.analyst.contract import AnalystBrain
from bunseki.brain.factory import create_analyst_brain
from bunseki.brain.language import detect_language
from bunseki.data import LoadedTable, load_table
from bunseki.domain import ArtifactKind, Event, FinishedStatus, Message, Session, Turn
from bunseki.errors import (
    BunsekiError,
    Conflict,
    NotFound,
    SandboxLost,
    SessionBusy,
)
from bunseki.llm import available_models
from bunseki.owners import process_owner
from bunseki.sandbox import add_data_file, backends
from bunseki.sandbox.backend import BackendHealth, SandboxBackend, SessionSandbox
from bunseki.sandbox.workspace import remove_workspace
from bunseki.service.conversation import Exchange, build_exchanges
from bunseki.service.datafiles import save_sheet, saved_sheet, workbook_sheets
from bunseki.service.datastates import DataOperations
from bunseki.service.heartbeat import HEARTBEAT
from bunseki.service.history import as_messages, trim_history
from bunseki.service.inputs import checked_question, checked_text, upload_name, write_limited
from bunseki.service.replicas import Mark, beat_ages, behind, mark_of, may_still_run
from bunseki.service.runtime import SessionRuntime, TurnResult
from bunseki.service.users import Accounts
from bunseki.settings import Settings
from bunseki.state import AppliedStep, DataState
from bunseki.store import Store
from bunseki.tracing import TurnRecorder, flush_tracers, turn_config

HISTORY_MESSAGES = 200  # read at most this many from the store; the token budget trims further
INTERRUPTED = {
    "ja": "（この質問への回答は、処理が中断されたため完了していません。もう一度質問してください。）",
    "en": "(The answer to this question was interrupted before it finished. Please ask again.)",
}
FAILED = {
    "ja": "（この質問への回答中にエラーが発生しました。もう一度質問してください。）",
    "en": "(Something went wrong while answering this question. Please ask again.)",
}
LOST = {
    "ja": "（この質問の処理中に、セッションを実行していたマシンが失われました。"
    "その手順の前の状態に戻したので、もう一度質問してください。）",
    "en": "(The machine running this session was lost while answering. The session was restored to before "
    "that step; please ask again.)",
}


class AnalysisService(DataOperations):
    """Create, resume and talk to analysis sessions; snapshots, restores and exports."""

    def __init__(
        self,
        settings: Settings | None = None,
        *,
        store: Store | None = None,
        brains: Callable[[str], AnalystBrain] | None = None,
        max_open: int | None = None,
        warm: bool = False,
        backend: SandboxBackend | None = None,
    ) -> None:
        """``brains`` makes the brain for a session's model spec (default: `create_analyst_brain`).

        ``warm``: keep started sandboxes for new sessions (servers do; a one-off CLI session would
        only pay for sandboxes it never uses). ``backend``: where sandboxes run (default: the one the
        settings name, opened here and closed with the service).
        """
        self.settings = settings or Settings()
        self._owns_store = store is None
        self.store = store or Store.from_settings(self.settings)
        self.brains = brains or (lambda spec: create_analyst_brain(spec, self.settings))
        self.accounts = Accounts(self.store)
        self._me = f"{process_owner()}:{uuid.uuid4().hex[:8]}"  # this process and this service in it
        self.max_open = max_open or self.settings.open_sessions
        self._open: OrderedDict[str, SessionRuntime] = OrderedDict()
        # Data states rebuilt for sessions without an open runtime (a page showing one asks often),
        # each with the position of the session's last step when it was built.
        self._rebuilt: OrderedDict[str, tuple[int, LoadedTable, DataState]] = OrderedDict()
        self._holders: dict[str, int] = {}  # the thread holding a session's lock
        self._seen: dict[str, Mark] = {}  # the store as each open runtime last saw it (replicas.behind)
        self._locks: dict[str, threading.Lock] = {}
        self._guard = threading.Lock()
        self._owns_backend = backend is None
        self.backend = backend or backends.create(self.settings, warm=warm)

    def __enter__(self) -> AnalysisService:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def close(self) -> None:
        """Stop every open sandbox (sessions stay saved), and the backend and store if this service opened them."""
        HEARTBEAT.leave(self._me)  # before the store closes: the row goes with it
        with self._guard:
            for runtime in self._open.values():
                runtime.close()
            self._open.clear()
            self._rebuilt.clear()
        if self._owns_backend:
            self.backend.close()
        if self._owns_store:
            self.store.close()

    def warm_sandboxes(self) -> int:
        """How many started sandboxes wait for new sessions."""
        return self.sandbox_health().warm

    def sandbox_health(self) -> BackendHealth:
        """What the sandbox backend reports: which one, how many sessions it holds, warm ones, details."""
        return self.backend.health()

    # --- sessions ----------------------------------------------------------------------------

    def create_session(
        self,
        data_file: Path,
        *,
        title: str | None = None,
        user_id: str | None = None,
        model: str | None = None,
        sheet: str | None = None,
    ) -> Session:
        """Load ``data_file`` (raises DataLoadError), give it a workspace and record the session.

        ``sheet``: the sheet of a workbook to analyse (default: the first; the overview names the others).
        """
        title = checked_text(title, "the title") if title is not None else None
        sheet = checked_text(sheet, "the sheet name") if sheet else None
        table = load_table(data_file, sheet=sheet)
        model = model or self.settings.model
        self.brains(model)  # refuse a bad model spec before anything is created
        workspace = self.backend.new_workspace()  # a warm sandbox's, when the backend keeps some
        try:
            copy = add_data_file(workspace, data_file)
            if sheet is not None:
                save_sheet(copy, sheet)
            record = self.store.create_session(
                title=title or data_file.stem,
                dataset_name=data_file.name,
                dataset_path=str(copy.relative_to(workspace)),
                dataset_format=table.format,
                dataset_encoding=table.encoding,
                dataset_rows=len(table.frame),
                dataset_columns=len(table.frame.columns),
                workspace=str(workspace),
                model=model,
                user_id=user_id,
            )
        except BaseException:
            remove_workspace(workspace)  # and the backend lets go of a warm sandbox kept for it
            raise
        state = DataState.of(table, workspace, source=record.dataset_name)
        state.rebuild([])
        self._keep(record.id, (0, dataclasses.replace(table, path=copy), state))  # the first turn reads no file
        return record

    def create_session_from_upload(
        self,
        file_name: str | None,
        content: bytes | BinaryIO,
        *,
        title: str | None = None,
        user_id: str | None = None,
        model: str | None = None,
        max_bytes: int | None = None,
        sheet: str | None = None,
    ) -> Session:
        """A session on uploaded bytes (a browser or API upload) named ``file_name``; as `create_session`.

        Only the last component of ``file_name`` is used, so a name cannot point anywhere else; the
        type is checked before anything is written, and a stream is copied only up to ``max_bytes``.
        """
        name = upload_name(file_name)
        with tempfile.TemporaryDirectory(prefix="bunseki-upload-") as directory:
            path = Path(directory) / name
            write_limited(path, io.BytesIO(content) if isinstance(content, bytes) else content, max_bytes)
            return self.create_session(path, title=title, user_id=user_id, model=model, sheet=sheet)

    @staticmethod
    def workbook_sheets(file_name: str | None, content: bytes) -> list[str]:
        """The sheets of an uploaded workbook, for a choice before the session starts ([] for other files)."""
        return workbook_sheets(file_name, content)

    def get_session(self, session_id: str, *, user_id: str | None = None) -> Session:
        return self.store.get_session(session_id, user_id=user_id)

    def find_session(self, id_or_prefix: str, *, user_id: str | None = None) -> Session:
        """A session by its id, or by a unique start of it (at least 4 characters), as git does."""
        wanted = id_or_prefix.strip().lower()
        if len(wanted) < 4:
            raise NotFound(f"'{id_or_prefix}' is too short to name a session: give at least 4 characters of its id")
        found = [record for record in self.store.list_sessions(user_id=user_id) if record.id.startswith(wanted)]
        if not found:
            raise NotFound(f"there is no session '{id_or_prefix}': `bunseki sessions list` shows them")
        if len(found) > 1:
            raise Conflict(f"'{id_or_prefix}' starts {len(found)} session ids: give more of the id")
        return found[0]

    def list_sessions(self, *, user_id: str | None = None) -> list[Session]:
        return self.store.list_sessions(user_id=user_id)

    def available_models(self) -> list[str]:
        """Model specs worth offering: offline first, then the configured model and providers with keys."""
        return available_models(self.settings)

    def set_model(self, session_id: str, model: str, *, user_id: str | None = None) -> Session:
        """Answer the session's next turns with ``model`` (ConfigurationError if it cannot be used)."""
        self.store.get_session(session_id, user_id=user_id)
        self.brains(model)  # refuse a bad model spec or a missing key before anything changes
        with self._session_lock(session_id):
            record = self.store.touch_session(session_id, model=model)
            self._discard(session_id)  # the next turn opens the session with the new brain
            return record

    def delete_session(self, session_id: str, *, user_id: str | None = None) -> None:
        """Forget a session: its rows, and its workspace on disk."""
        record = self.store.get_session(session_id, user_id=user_id)
        with self._session_lock(session_id):
            runtime = self._open.pop(session_id, None)
            if runtime is not None:
                runtime.close()
            self.backend.stop(session_id)  # also one this service did not open (another replica's)
            self._rebuilt.pop(session_id, None)
            self.store.delete_session(session_id, user_id=user_id)
        _remove_tree(Path(record.workspace), self.settings.workspace_root)

    # --- conversation ------------------------------------------------------------------------

    def run_turn(
        self,
        session_id: str,
        message: str,
        *,
        user_id: str | None = None,
        on_event: Callable[[Event], None] | None = None,
    ) -> TurnResult:
        """Answer one message; turns of a session never overlap (SessionBusy)."""
        message = checked_question(message, self.settings.max_question_chars)
        record = self.store.get_session(session_id, user_id=user_id)
        with self._session_lock(session_id):
            runtime = self._runtime(record)
            self._refuse_if_running_elsewhere(session_id)
            history = self._history(session_id)
            HEARTBEAT.join(self._me, self.store, self.settings.replica_heartbeat_s)  # beating before a turn names us
            turn = self.store.start_turn(session_id=session_id, question=message, owner=self._me)
            with self._guard:
                seen = self._seen.get(session_id)
                if seen is not None and seen.turn == turn.number - 1:  # no other replica's turn came in between
                    self._seen[session_id] = dataclasses.replace(seen, turn=turn.number)
            runtime = self._runtime(record)  # reopened if the store moved on meanwhile
            self.store.add_message(session_id=session_id, role="user", content=message, turn_id=turn.id)
            if on_event:
                on_event({"event": "turn_started", "turn": turn.number, "data_state": runtime.data_state.describe()})
            recorder = TurnRecorder()  # the turn's usage and trace; LangSmith sees the metadata too
            tagged = turn_config(
                recorder, bunseki_session_id=session_id, bunseki_turn_id=turn.id, bunseki_turn=turn.number
            )
            try:
                result = runtime.ask(
                    message,
                    history=history,
                    report_stem=f"report_{turn.number:03d}",
                    record_step=self._step_log(session_id, turn.id),
                    on_event=recorder.relay(on_event),
                    config=tagged,
                )
                result.turn_id = turn.id
                result.usage = recorder.usage(runtime.brain.name, self.settings.llm_prices)
                self._record_result(session_id, turn.id, result)
                finished: FinishedStatus = "error" if result.status == "running" else result.status
                trace = recorder.trace(model=runtime.brain.name, status=finished, error=result.error)
                self.store.finish_turn(turn.id, status=finished, error=result.error, usage=result.usage, trace=trace)
            except BaseException as exc:  # the turn is over either way: say so in the record
                self._abandon(session_id, turn.id, message, exc, recorder, runtime.brain.name)
                raise
            finally:
                flush_tracers()
            self.store.touch_session(session_id)
            if on_event:
                on_event({"event": "turn_finished", "turn": turn.number, "status": result.status})
            return result

    def messages(self, session_id: str, *, user_id: str | None = None) -> list[Message]:
        self.store.get_session(session_id, user_id=user_id)
        self._mark_interrupted(session_id)
        return self.store.list_messages(session_id)

    def turns(self, session_id: str, *, user_id: str | None = None) -> list[Turn]:
        """The session's turns in order, each with what its model calls cost."""
        self.store.get_session(session_id, user_id=user_id)
        self._mark_interrupted(session_id)
        return self.store.list_turns(session_id)

    def trace(self, session_id: str, number: int | None = None, *, user_id: str | None = None) -> dict[str, Any]:
        """The local trace of turn ``number`` (default: the latest): its nodes, model calls,
        executions and errors with their offsets and durations. NotFound when there is none."""
        self.store.get_session(session_id, user_id=user_id)
        turns = self.store.list_turns(session_id)
        if not turns:
            raise NotFound(f"session {session_id[:8]} has no turns yet: ask it a question first")
        found = turns[-1] if number is None else next((turn for turn in turns if turn.number == number), None)
        if found is None:
            raise NotFound(f"session {session_id[:8]} has no turn {number}: it has turns 1 to {turns[-1].number}")
        if found.trace is None:
            reasons = {"running": "it is still running", "interrupted": "the process running it stopped first"}
            reason = reasons.get(found.status, "it was recorded before traces were kept")
            raise NotFound(f"turn {found.number} of session {session_id[:8]} has no trace: {reason}")
        return {"turn": found.number, "question": found.question, **found.trace}

    def clear_history(self, session_id: str, *, user_id: str | None = None) -> int:
        """Forget the conversation, so the next turn starts afresh; the data state, its steps,
        snapshots and reports stay. Returns how many messages were forgotten."""
        self.store.get_session(session_id, user_id=user_id)
        with self._session_lock(session_id):
            self._refuse_if_running_elsewhere(session_id)
            return self.store.clear_messages(session_id)

    def conversation(self, session_id: str, *, user_id: str | None = None) -> list[Exchange]:
        """The messages grouped by question, each with its report (and its files) and data steps."""
        self.store.get_session(session_id, user_id=user_id)
        self._mark_interrupted(session_id)
        return build_exchanges(
            self.store.list_messages(session_id),
            self.store.list_turns(session_id),
            self.store.list_reports(session_id),
            self.store.list_steps(session_id),
        )

    # --- internals ---------------------------------------------------------------------------

    @contextmanager
    def _session_lock(self, session_id: str) -> Iterator[None]:
        with self._guard:
            lock = self._locks.setdefault(session_id, threading.Lock())
        if not lock.acquire(blocking=False):
            raise SessionBusy("this session is answering another message; wait for it to finish")
        with self._guard:
            self._holders[session_id] = threading.get_ident()
        try:
            yield
        finally:
            with self._guard:
                self._holders.pop(session_id, None)
            lock.release()

    def _runtime(self, record: Session) -> SessionRuntime:
        """The open runtime of a session, opening it (and closing the least recent) as needed."""
        self._follow_store(record)
        with self._guard:
            runtime = self._open.get(record.id)
            if runtime is not None:
                self._open.move_to_end(record.id)
                return runtime
        self._mark_interrupted(record.id)
        table, state = self._load_state(record, take=True)
        workspace = Path(record.workspace)
        runtime = SessionRuntime(
            table=table,
            workspace=workspace,
            data_state=state,
            brain=self.brains(record.model),
            settings=self.settings,
            sandbox=SessionSandbox(self.backend, record.id, workspace),
        )
        runtime.start()  # the backend adopts the warm sandbox the session's workspace came with
        with self._guard:
            self._open[record.id] = runtime
            idle = [key for key in self._open if key != record.id and not self._busy(key)]
            closing = [self._open.pop(key) for key in idle[: max(0, len(self._open) - self.max_open)]]
        for runtime_ in closing:  # only idle ones: a session in a turn keeps its sandbox
            runtime_.close()
        return runtime

    def _load_state(self, record: Session, *, take: bool = False) -> tuple[LoadedTable, DataState]:
        """The session's data as uploaded and as it stands after its recorded steps.

        Kept for the next call while no step is added; ``take`` hands it over (to a runtime)
        instead, so that no two owners change the same state.
        """
        recorded = self.store.list_steps(record.id)
        latest = recorded[-1].position if recorded else 0
        with self._guard:
            kept = self._rebuilt.pop(record.id, None) if take else self._rebuilt.get(record.id)
        if kept is not None and kept[0] == latest:
            return kept[1], kept[2]
        workspace = Path(record.workspace)
        path = workspace / record.dataset_path
        table = load_table(path, sheet=saved_sheet(path))
        state = DataState.of(table, workspace, source=record.dataset_name)
        steps = [
            AppliedStep(position=step.position, step_type=step.step_type, parameters=step.parameters)
            for step in recorded
            if step.changes_data
        ]
        state.rebuild(steps)
        if not take:
            self._keep(record.id, (latest, table, state))
        return table, state

    def _keep(self, session_id: str, rebuilt: tuple[int, LoadedTable, DataState]) -> None:
        with self._guard:
            self._rebuilt[session_id] = rebuilt
            self._rebuilt.move_to_end(session_id)
            while len(self._rebuilt) > self.max_open:
                self._rebuilt.popitem(last=False)

    def _busy(self, session_id: str) -> bool:
        lock = self._locks.get(session_id)
        return lock is not None and lock.locked()

    def _current_state(self, record: Session) -> DataState:
        """The data state, from the open runtime or rebuilt (and kept) without starting a sandbox."""
        self._follow_store(record)
        with self._guard:
            runtime = self._open.get(record.id)
        return runtime.data_state if runtime is not None else self._load_state(record)[1]

    def _follow_store(self, record: Session) -> None:
        """Close the open runtime if another replica committed a turn or a data change since it saw the
        session (the next use rebuilds it from the store), unless another thread of ours is using it.

        Called holding the session's lock, it also notes what a runtime opened next will have seen.
        """
        session_id = record.id
        with self._guard:
            runtime, seen = self._open.get(session_id), self._seen.get(session_id)
        ours = self._holders.get(session_id) == threading.get_ident()
        if (runtime is None and not ours) or (runtime is not None and self._used_elsewhere(session_id)):
            return
        mark = mark_of(self.store, record)  # before any state is read: a later turn makes it behind
        if runtime is not None and not behind(mark, seen=seen, data_position=runtime.data_state.position):
            return
        with self._guard:
            if runtime is not None:
                if self._open.get(session_id) is not runtime or self._used_elsewhere(session_id):
                    return
                del self._open[session_id]
            if ours:
                self._seen[session_id] = mark
        if runtime is not None:
            self._let_go(runtime)

    def _let_go(self, runtime: SessionRuntime) -> None:
        """Forget a runtime the store moved past. Its sandbox is this process's own, and holds variables of
        turns before the other replica's: stop it (a backend whose sandbox every replica shares must not)."""
        runtime.close()

    def _used_elsewhere(self, session_id: str) -> bool:
        holder = self._holders.get(session_id)
        return holder is not None and holder != threading.get_ident()

    def _discard(self, session_id: str) -> None:
        """Close a runtime whose turn broke off: the next turn rebuilds it from the store."""
        with self._guard:
            runtime = self._open.pop(session_id, None)
        if runtime is not None:
            runtime.close()

    def _history(self, session_id: str) -> list[AnyMessage]:
        stored = self.store.list_messages(session_id, last=HISTORY_MESSAGES)
        return trim_history(as_messages([(m.role, m.content) for m in stored]), self.settings.history_tokens)

    def _step_log(self, session_id: str, turn_id: str) -> Callable[..., int]:
        def record(**fields: Any) -> int:
            return self.store.add_step(session_id=session_id, turn_id=turn_id, **fields).position

        return record

    def _record_result(self, session_id: str, turn_id: str, result: TurnResult) -> None:
        workspace = result.workspace_dir
        for path in result.artifacts:
            kind: ArtifactKind = "image" if path.suffix.lower() in (".png", ".jpg", ".jpeg", ".svg") else "file"
            self.store.add_artifact(
                session_id=session_id, path=str(path.relative_to(workspace)), kind=kind, turn_id=turn_id
            )
        if result.report is not None and result.saved is not None:
            saved = result.saved
            self.store.add_report(
                session_id=session_id,
                turn_id=turn_id,
                title=result.report.title,
                conclusion=result.report.conclusion,
                content=result.report.model_dump(mode="json"),
                markdown_path=str(saved.markdown_path.relative_to(workspace)),
                html_path=str(saved.html_path.relative_to(workspace)),
                notebook_path=str(saved.notebook_path.relative_to(workspace)),
            )
        reply = (result.answer or result.question or result.error or "").replace("\x00", "")
        if reply:
            self.store.add_message(session_id=session_id, role="assistant", content=reply, turn_id=turn_id)
        if result.status == "asked" and result.question:
            self.store.add_unanswered(
                question=_last_user(result.messages), reason=result.question, source="analyst", session_id=session_id
            )

    def _abandon(
        self, session_id: str, turn_id: str, message: str, exc: BaseException, recorder: TurnRecorder, model: str
    ) -> None:
        """Record a turn that broke off, with what it spent so far; a failure to record it must not
        hide the reason it broke."""
        status: FinishedStatus = "interrupted" if isinstance(exc, KeyboardInterrupt) else "error"
        self._discard(session_id)  # its sandbox may be mid-cell; the next turn starts clean
        error = f"{type(exc).__name__}: {exc}"
        usage = recorder.usage(model, self.settings.llm_prices)
        trace = recorder.trace(model=model, status=status, error=error)
        with suppress(BunsekiError):
            self.store.finish_turn(turn_id, status=status, error=error, usage=usage, trace=trace)
            # A lost cell left nothing behind (it was never recorded): say so, and that asking again works.
            notice = INTERRUPTED if status == "interrupted" else LOST if isinstance(exc, SandboxLost) else FAILED
            self.store.add_message(
                session_id=session_id, role="assistant", content=notice[detect_language(message)], turn_id=turn_id
            )

    def _refuse_if_running_elsewhere(self, session_id: str) -> None:
        """Called holding the session's lock: a turn of ours still marked running is one that broke off."""
        running = self.store.running_turns(session_id)
        beats = beat_ages(self.store, running)
        for turn in running:
            if turn.owner == self._me:
                self.store.finish_turn(turn.id, status="error", error="its end could not be recorded")
            elif may_still_run(turn, self.settings, beats=beats):
                raise SessionBusy("another process is answering a message in this session")

    def _mark_interrupted(self, session_id: str) -> None:
        """Turns recorded as running by a process that is gone are over: say so, and stop the cell such
        a turn may have left running in a shared sandbox (the next question would wait behind it)."""
        running = self.store.running_turns(session_id)
        beats = beat_ages(self.store, running)
        for turn in running:
            if may_still_run(turn, self.settings, beats=beats):
                continue
            self.store.finish_turn(turn.id, status="interrupted", error="the process running it stopped")
            self.store.add_message(
                session_id=session_id,
                role="assistant",
                content=INTERRUPTED[detect_language(turn.question)],
                turn_id=turn.id,
            )
            if turn.owner:
                with suppress(BunsekiError):  # unreachable now: the cell ends at its time limit anyway
                    self.backend.abandon(session_id, turn.owner)


def _last_user(messages: list[AnyMessage]) -> str:
    for message in reversed(messages):
        if isinstance(message, HumanMessage):
            return str(message.content)
    return ""


def _remove_tree(path: Path, root: Path) -> None:
    """Delete a workspace, and only something that is one (inside the workspace root)."""
    resolved = path.resolve()
    if resolved.is_relative_to(root.resolve()) and resolved != root.resolve():
        remove_workspace(resolved)


__all__ = ["AnalysisService", "BunsekiError", "TurnResult"]

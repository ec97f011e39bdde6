"""`Store`: every read and write of Bunseki's database, one transaction per call, records out.

Positions (messages, steps) and turn numbers are max + 1 under a lock on the session's row:
``SELECT … FOR NO KEY UPDATE`` on PostgreSQL; on SQLite every transaction begins IMMEDIATE,
which takes the database's single write lock (see `db.make_engine`). Unique constraints on
(session_id, position) and (session_id, number) turn any slip into an error, never a duplicate.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import threading
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, Final, Self, TypedDict, TypeVar, Unpack

from pydantic import BaseModel
from sqlalchemy import Select, delete, func, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import DataError, IntegrityError, InterfaceError, OperationalError
from sqlalchemy.orm import InstrumentedAttribute, sessionmaker
from sqlalchemy.orm import Session as OrmSession

from bunseki.errors import Conflict, InputError, NotFound, SessionBusy, SnapshotNameTaken, StorageError
from bunseki.settings import Settings
from bunseki.store import beats
from bunseki.store import db as database
from bunseki.store.epochs import EpochReader
from bunseki.store.models import (
    AnalysisSession,
    Artifact,
    Base,
    EdaRun,
    KnowledgeConversation,
    KnowledgeTurn,
    Message,
    Report,
    SessionEpoch,
    Snapshot,
    Step,
    Turn,
    UnansweredQuestion,
    UsageColumns,
    User,
    utcnow,
)
from bunseki.store.records import (
    ArtifactKind,
    ArtifactRecord,
    EdaRunRecord,
    EdaStatus,
    FinishedStatus,
    KnowledgeConversationRecord,
    KnowledgeTurnRecord,
    MessageRecord,
    ReportRecord,
    Role,
    SessionRecord,
    SnapshotRecord,
    StepRecord,
    TurnRecord,
    UnansweredRecord,
    UserRecord,
)
from bunseki.usage import TurnUsage, total

KEY_PREFIX: Final = "bk_"
_SHOWN_KEY_CHARS: Final = 8
_Row = TypeVar("_Row", bound=Base)
_Record = TypeVar("_Record", bound=BaseModel)


class SessionChanges(TypedDict, total=False):
    """The fields of a session that `Store.touch_session` may change."""

    title: str
    dataset_name: str
    dataset_path: str
    dataset_format: str
    dataset_encoding: str | None
    dataset_rows: int
    dataset_columns: int
    workspace: str
    model: str


class Store:
    """Bunseki's persistence on SQLite or PostgreSQL: users, sessions and all that happens in them."""

    def __init__(self, url: str, *, migrate: bool = True) -> None:
        try:
            self._engine = database.make_engine(url)
        except OSError as error:  # SQLite: the folder for the file cannot be created
            raise StorageError(f"The database file for {url} cannot be created: {error}.") from error
        self._where = self._engine.url.render_as_string(hide_password=True)
        if migrate:
            try:
                database.migrate(self._engine)
            except (OperationalError, InterfaceError) as error:
                self._engine.dispose()
                raise self._unavailable(error) from error
        self._orm = sessionmaker(self._engine, expire_on_commit=False)
        self._epochs: EpochReader | None = None  # made on the first fencing check (session actors only)
        self._epochs_lock = threading.Lock()

    @classmethod
    def from_settings(cls, settings: Settings) -> Store:
        """The store at the configured database URL (SQLite under the workspace root by default)."""
        return cls(settings.database)

    @property
    def where(self) -> str:
        """The database, as its URL without the password: two stores with one ``where`` share their rows."""
        return self._where

    def close(self) -> None:
        """Close every pooled connection; the store is unusable afterwards."""
        with self._epochs_lock:
            if self._epochs is not None:
                self._epochs.close()
        self._engine.dispose()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    # --- users ---

    def create_user(self, name: str) -> tuple[UserRecord, str]:
        """A new user and their API key, returned this once: only its sha256 and prefix are kept."""
        key = KEY_PREFIX + secrets.token_urlsafe(32)
        with self._transaction() as db:
            if db.scalar(select(User.id).where(User.name == name)) is not None:
                raise Conflict(f"A user named {name!r} already exists; choose another name.")
            user = _add(db, User(name=name, key_hash=_digest(key), key_prefix=key[:_SHOWN_KEY_CHARS]))
            return UserRecord.model_validate(user), key

    def user_for_key(self, key: str) -> UserRecord | None:
        """The active user this API key belongs to, or None (also for revoked users)."""
        digest = _digest(key)
        query = select(User).where(User.key_prefix == key[:_SHOWN_KEY_CHARS], User.revoked_at.is_(None))
        with self._transaction() as db:
            for user in db.scalars(query):
                if user.key_hash is not None and hmac.compare_digest(user.key_hash, digest):
                    return UserRecord.model_validate(user)
        return None

    def list_users(self) -> list[UserRecord]:
        """Every user, revoked ones included, by name."""
        with self._transaction() as db:
            return _records(db, select(User).order_by(User.name), UserRecord)

    def revoke_user(self, name: str) -> bool:
        """Revoke the user's key for good; False when there is no active user of that name."""
        with self._transaction() as db:
            user = db.scalar(select(User).where(User.name == name, User.revoked_at.is_(None)))
            if user is None:
                return False
            user.revoked_at = utcnow()
            return True

    def get_user(self, user_id: str) -> UserRecord:
        """The user with this id; NotFound when there is none."""
        with self._transaction() as db:
            user = db.get(User, user_id)
            if user is None:
                raise NotFound(f"There is no user {user_id}.")
            return UserRecord.model_validate(user)

    # --- sessions ---

    def create_session(
        self,
        *,
        title: str,
        dataset_name: str,
        dataset_path: str,
        dataset_format: str,
        dataset_encoding: str | None,
        dataset_rows: int,
        dataset_columns: int,
        workspace: str,
        model: str,
        user_id: str | None = None,
    ) -> SessionRecord:
        """A new session over an uploaded data file, owned by ``user_id`` when given."""
        now = utcnow()
        row = AnalysisSession(
            user_id=user_id,
            title=title,
            dataset_name=dataset_name,
            dataset_path=dataset_path,
            dataset_format=dataset_format,
            dataset_encoding=dataset_encoding,
            dataset_rows=dataset_rows,
            dataset_columns=dataset_columns,
            workspace=workspace,
            model=model,
            created_at=now,
            updated_at=now,
        )
        with self._transaction() as db:
            if user_id is not None and db.get(User, user_id) is None:
                raise NotFound(f"There is no user {user_id} to own the session.")
            return SessionRecord.model_validate(_add(db, row))

    def get_session(self, session_id: str, *, user_id: str | None = None) -> SessionRecord:
        """The session; NotFound when it does not exist or, given ``user_id``, is not that user's."""
        with self._transaction() as db:
            return SessionRecord.model_validate(_session_row(db, session_id, user_id=user_id))

    def list_sessions(self, *, user_id: str | None = None) -> list[SessionRecord]:
        """All sessions, or those of ``user_id``, newest first."""
        query = select(AnalysisSession).order_by(AnalysisSession.created_at.desc())
        if user_id is not None:
            query = query.where(AnalysisSession.user_id == user_id)
        with self._transaction() as db:
            return _records(db, query, SessionRecord)

    def touch_session(self, session_id: str, **changes: Unpack[SessionChanges]) -> SessionRecord:
        """Set ``updated_at`` to now, and any fields given; NotFound when the session does not exist."""
        unknown = changes.keys() - SessionChanges.__optional_keys__
        if unknown:
            raise TypeError(f"touch_session() cannot change {', '.join(sorted(unknown))}")
        with self._transaction() as db:
            row = _session_row(db, session_id)
            for name, value in changes.items():
                setattr(row, name, value)
            row.updated_at = utcnow()
            db.flush()
            return SessionRecord.model_validate(row)

    def delete_session(self, session_id: str, *, user_id: str | None = None) -> SessionRecord:
        """Delete the session and everything in it; returns it so the caller can remove its workspace."""
        with self._transaction() as db:
            row = _session_row(db, session_id, user_id=user_id)
            record = SessionRecord.model_validate(row)
            db.delete(row)  # the database's ON DELETE CASCADE removes the session's rows
            return record

    # --- turns ---

    def start_turn(self, *, session_id: str, question: str, owner: str | None) -> TurnRecord:
        """Number a new turn and mark it running; SessionBusy while another turn of the session runs."""
        with self._transaction() as db:
            _session_row(db, session_id, lock=True)
            running = db.scalar(select(Turn.number).where(Turn.session_id == session_id, Turn.status == "running"))
            if running is not None:
                raise SessionBusy(f"Turn {running} of this session is still running; wait until it ends.")
            number = _next(db, Turn.number, Turn.session_id, session_id)
            turn = Turn(
                session_id=session_id,
                number=number,
                question=question,
                status="running",
                owner=owner,
                started_at=utcnow(),
            )
            return TurnRecord.model_validate(_add(db, turn))

    def finish_turn(
        self,
        turn_id: str,
        *,
        status: FinishedStatus,
        error: str | None = None,
        usage: TurnUsage | None = None,
        trace: dict[str, Any] | None = None,
    ) -> TurnRecord:
        """Record how a running turn ended, what its model calls cost and its trace; Conflict when
        it has already ended."""
        with self._transaction() as db:
            turn = db.get(Turn, turn_id, with_for_update={"key_share": True})
            if turn is None:
                raise NotFound(f"There is no turn {turn_id}.")
            if turn.status != "running":
                raise Conflict(f"Turn {turn.number} already ended as {turn.status!r}; it cannot end again.")
            turn.status, turn.error, turn.finished_at = status, error, utcnow()
            if usage is not None:
                turn.model = usage.model
                _put_usage(turn, usage)
            if trace is not None:
                turn.trace = _json(trace)
            db.flush()
            return TurnRecord.model_validate(turn)

    def running_turns(self, session_id: str) -> list[TurnRecord]:
        """The session's turns still marked running (at most one, unless a process died mid-turn)."""
        query = select(Turn).where(Turn.session_id == session_id, Turn.status == "running").order_by(Turn.number)
        with self._transaction() as db:
            return _records(db, query, TurnRecord)

    def list_turns(self, session_id: str) -> list[TurnRecord]:
        """The session's turns in order."""
        with self._transaction() as db:
            return _records(db, select(Turn).where(Turn.session_id == session_id).order_by(Turn.number), TurnRecord)

    # --- messages ---

    def add_message(self, *, session_id: str, role: Role, content: str, turn_id: str | None = None) -> MessageRecord:
        """Append a message to the session's conversation."""
        with self._transaction() as db:
            _session_row(db, session_id, lock=True)
            _check_turn(db, session_id, turn_id)
            position = _next(db, Message.position, Message.session_id, session_id)
            message = Message(session_id=session_id, turn_id=turn_id, position=position, role=role, content=content)
            return MessageRecord.model_validate(_add(db, message))

    def list_messages(self, session_id: str, *, last: int | None = None) -> list[MessageRecord]:
        """The session's messages in order; only the last ``last`` of them when given."""
        if last is not None and last < 0:
            raise ValueError(f"last must be 0 or more, not {last}")
        query = select(Message).where(Message.session_id == session_id).order_by(Message.position.desc())
        if last is not None:
            query = query.limit(last)
        with self._transaction() as db:
            return _records(db, query, MessageRecord)[::-1]

    def clear_messages(self, session_id: str) -> int:
        """Forget the session's conversation (its turns, steps and reports stay); returns how many went."""
        with self._transaction() as db:
            _session_row(db, session_id, lock=True)
            return len(db.execute(delete(Message).where(Message.session_id == session_id).returning(Message.id)).all())

    # --- steps ---

    def add_step(
        self,
        *,
        session_id: str,
        step_type: str,
        parameters: dict[str, Any],
        result: Any,
        turn_id: str | None = None,
        rows_before: int | None = None,
        rows_after: int | None = None,
        changes_data: bool = False,
        duration_s: float = 0.0,
    ) -> StepRecord:
        """Append an operation on the data to the session's history."""
        with self._transaction() as db:
            _session_row(db, session_id, lock=True)
            _check_turn(db, session_id, turn_id)
            step = Step(
                session_id=session_id,
                turn_id=turn_id,
                position=_next(db, Step.position, Step.session_id, session_id),
                step_type=step_type,
                parameters=parameters,
                result=result,
                rows_before=rows_before,
                rows_after=rows_after,
                changes_data=changes_data,
                duration_s=duration_s,
            )
            return StepRecord.model_validate(_add(db, step))

    def list_steps(self, session_id: str) -> list[StepRecord]:
        """The session's steps in order."""
        with self._transaction() as db:
            return _records(db, select(Step).where(Step.session_id == session_id).order_by(Step.position), StepRecord)

    # --- snapshots ---

    def add_snapshot(
        self, *, session_id: str, name: str, path: str, rows: int, columns: int, step_position: int
    ) -> SnapshotRecord:
        """Record a saved state of the data: the table after ``step_position`` steps, stored at ``path``.

        SnapshotNameTaken when the session has a snapshot of that name (the unique constraint
        settles two processes saving the same name at once)."""
        snapshot = Snapshot(
            session_id=session_id, name=name, path=path, rows=rows, columns=columns, step_position=step_position
        )
        named = select(Snapshot.id).where(Snapshot.session_id == session_id, Snapshot.name == name)
        try:
            with self._transaction() as db:
                _session_row(db, session_id)
                if db.scalar(named) is not None:
                    raise SnapshotNameTaken(name)
                return SnapshotRecord.model_validate(_add(db, snapshot))
        except SnapshotNameTaken:
            raise
        except Conflict as clash:
            with self._transaction() as db:
                if db.scalar(named) is not None:
                    raise SnapshotNameTaken(name) from clash
            raise

    def snapshot_named(self, session_id: str, name: str) -> SnapshotRecord | None:
        """The session's snapshot called ``name``, if there is one."""
        query = select(Snapshot).where(Snapshot.session_id == session_id, Snapshot.name == name)
        with self._transaction() as db:
            row = db.scalar(query)
            return None if row is None else SnapshotRecord.model_validate(row)

    def list_snapshots(self, session_id: str) -> list[SnapshotRecord]:
        """The session's snapshots, oldest first."""
        query = select(Snapshot).where(Snapshot.session_id == session_id).order_by(Snapshot.created_at)
        with self._transaction() as db:
            return _records(db, query, SnapshotRecord)

    def get_snapshot(self, session_id: str, snapshot_id: str) -> SnapshotRecord:
        """A snapshot of this session; NotFound when the session has none with that id."""
        with self._transaction() as db:
            return SnapshotRecord.model_validate(_snapshot_row(db, session_id, snapshot_id))

    def delete_snapshot(self, session_id: str, snapshot_id: str) -> SnapshotRecord:
        """Forget a snapshot; returns it so the caller can remove its file."""
        with self._transaction() as db:
            row = _snapshot_row(db, session_id, snapshot_id)
            db.delete(row)
            return SnapshotRecord.model_validate(row)

    # --- artifacts ---

    def add_artifact(
        self, *, session_id: str, path: str, kind: ArtifactKind, turn_id: str | None = None
    ) -> ArtifactRecord:
        """Record a file a turn produced in the session's workspace."""
        with self._transaction() as db:
            _session_row(db, session_id)
            _check_turn(db, session_id, turn_id)
            artifact = Artifact(session_id=session_id, turn_id=turn_id, path=path, kind=kind)
            return ArtifactRecord.model_validate(_add(db, artifact))

    def list_artifacts(self, session_id: str) -> list[ArtifactRecord]:
        """The session's artifacts, oldest first."""
        query = select(Artifact).where(Artifact.session_id == session_id).order_by(Artifact.created_at)
        with self._transaction() as db:
            return _records(db, query, ArtifactRecord)

    # --- reports ---

    def add_report(
        self,
        *,
        session_id: str,
        title: str,
        conclusion: str,
        content: dict[str, Any],
        markdown_path: str | None = None,
        html_path: str | None = None,
        notebook_path: str | None = None,
        turn_id: str | None = None,
    ) -> ReportRecord:
        """Record a finished report and the paths of the files rendered from it."""
        report = Report(
            session_id=session_id,
            turn_id=turn_id,
            title=title,
            conclusion=conclusion,
            content=content,
            markdown_path=markdown_path,
            html_path=html_path,
            notebook_path=notebook_path,
        )
        with self._transaction() as db:
            _session_row(db, session_id)
            _check_turn(db, session_id, turn_id)
            return ReportRecord.model_validate(_add(db, report))

    def list_reports(self, session_id: str) -> list[ReportRecord]:
        """The session's reports, oldest first."""
        query = select(Report).where(Report.session_id == session_id).order_by(Report.created_at)
        with self._transaction() as db:
            return _records(db, query, ReportRecord)

    def latest_report(self, session_id: str) -> ReportRecord | None:
        """The session's newest report, or None before the first."""
        query = select(Report).where(Report.session_id == session_id).order_by(Report.created_at.desc()).limit(1)
        with self._transaction() as db:
            report = db.scalar(query)
            return None if report is None else ReportRecord.model_validate(report)

    # --- unanswered questions ---

    def add_unanswered(
        self,
        *,
        question: str,
        reason: str,
        source: str,
        session_id: str | None = None,
        collections: Sequence[str] = (),
    ) -> UnansweredRecord:
        """Keep a question that could not be answered, and why, for whoever improves Bunseki."""
        unanswered = UnansweredQuestion(
            session_id=session_id, question=question, reason=reason, source=source, collections=list(collections)
        )
        with self._transaction() as db:
            if session_id is not None:
                _session_row(db, session_id)
            return UnansweredRecord.model_validate(_add(db, unanswered))

    def list_unanswered(self, *, source: str | None = None) -> list[UnansweredRecord]:
        """Unanswered questions, oldest first, from one source when given."""
        query = select(UnansweredQuestion).order_by(UnansweredQuestion.created_at)
        if source is not None:
            query = query.where(UnansweredQuestion.source == source)
        with self._transaction() as db:
            return _records(db, query, UnansweredRecord)

    # --- EDA runs ---

    def create_eda_run(
        self, *, source: str, workspace: str, model: str, goal: str | None = None, user_id: str | None = None
    ) -> EdaRunRecord:
        """A new EDA run over ``source`` (a file in ``workspace``), owned by ``user_id`` when given."""
        now = utcnow()
        row = EdaRun(
            user_id=user_id,
            source=source,
            workspace=workspace,
            goal=goal,
            model=model,
            status="running",
            created_at=now,
            updated_at=now,
        )
        with self._transaction() as db:
            if user_id is not None and db.get(User, user_id) is None:
                raise NotFound(f"There is no user {user_id} to own the run.")
            return EdaRunRecord.model_validate(_add(db, row))

    def get_eda_run(self, run_id: str, *, user_id: str | None = None) -> EdaRunRecord:
        """The run; NotFound when it does not exist or, given ``user_id``, is not that user's."""
        with self._transaction() as db:
            return EdaRunRecord.model_validate(_eda_run_row(db, run_id, user_id=user_id))

    def list_eda_runs(self, *, user_id: str | None = None) -> list[EdaRunRecord]:
        """All EDA runs, or those of ``user_id``, newest first."""
        query = select(EdaRun).order_by(EdaRun.created_at.desc())
        if user_id is not None:
            query = query.where(EdaRun.user_id == user_id)
        with self._transaction() as db:
            return _records(db, query, EdaRunRecord)

    def set_eda_status(
        self,
        run_id: str,
        status: EdaStatus,
        *,
        error: str | None = None,
        usage: TurnUsage | None = None,
        trace: dict[str, Any] | None = None,
    ) -> EdaRunRecord:
        """Record where the run stands now (and the error that ended it, if any); ``usage`` (what the
        call that advanced it cost) is added to the run's, ``trace`` (that call's) to its traces."""
        with self._transaction() as db:
            row = db.get(EdaRun, run_id, with_for_update={"key_share": True})  # two sums never interleave
            if row is None:
                raise NotFound(f"There is no EDA run {run_id} here; list the runs to find its id.")
            row.status = status
            row.error = error
            row.updated_at = utcnow()
            if usage is not None:
                before = EdaRunRecord.model_validate(row).usage
                _put_usage(row, usage if before is None else _summed(before, usage))
            if trace is not None:
                earlier = json.loads(row.trace) if row.trace else []
                row.trace = _json([*earlier, trace])
            return EdaRunRecord.model_validate(row)

    def claim_eda_run(self, run_id: str, *, expected: EdaStatus) -> EdaRunRecord:
        """Mark the run running if it is still ``expected``; Conflict if another process got there first."""
        with self._transaction() as db:
            row = db.scalar(select(EdaRun).where(EdaRun.id == run_id).with_for_update())
            if row is None:
                raise NotFound(f"There is no EDA run {run_id} here; list the runs to find its id.")
            if row.status != expected:
                raise Conflict(f"EDA run {run_id} is {row.status.replace('_', ' ')} now, no longer {expected}.")
            row.status = "running"
            row.updated_at = utcnow()
            return EdaRunRecord.model_validate(row)

    def delete_eda_run(self, run_id: str, *, user_id: str | None = None) -> EdaRunRecord:
        """Forget the run (its workspace is the caller's to remove); NotFound as for `get_eda_run`."""
        with self._transaction() as db:
            row = _eda_run_row(db, run_id, user_id=user_id)
            record = EdaRunRecord.model_validate(row)
            db.delete(row)
            return record

    # --- knowledge conversations ---

    def create_knowledge_conversation(
        self, *, collections: Sequence[str], model: str | None, user_id: str | None = None
    ) -> KnowledgeConversationRecord:
        """A new knowledge conversation over ``collections``, owned by ``user_id`` when given."""
        now = utcnow()
        row = KnowledgeConversation(
            user_id=user_id, collections=list(collections), model=model, created_at=now, updated_at=now
        )
        with self._transaction() as db:
            if user_id is not None and db.get(User, user_id) is None:
                raise NotFound(f"There is no user {user_id} to own the conversation.")
            return KnowledgeConversationRecord.model_validate(_add(db, row))

    def get_knowledge_conversation(
        self, conversation_id: str, *, user_id: str | None = None
    ) -> KnowledgeConversationRecord:
        """The conversation; NotFound when it does not exist or, given ``user_id``, is not that user's."""
        with self._transaction() as db:
            return KnowledgeConversationRecord.model_validate(_conversation_row(db, conversation_id, user_id=user_id))

    def list_knowledge_conversations(self, *, user_id: str | None = None) -> list[KnowledgeConversationRecord]:
        """All knowledge conversations, or those of ``user_id``, most recently used first."""
        query = select(KnowledgeConversation).order_by(KnowledgeConversation.updated_at.desc())
        if user_id is not None:
            query = query.where(KnowledgeConversation.user_id == user_id)
        with self._transaction() as db:
            return _records(db, query, KnowledgeConversationRecord)

    def add_knowledge_turn(
        self,
        conversation_id: str,
        *,
        question: str,
        answer: dict[str, Any],
        collections: Sequence[str],
        usage: TurnUsage | None = None,
        trace: dict[str, Any] | None = None,
    ) -> KnowledgeTurnRecord:
        """Append a question and its answer, with what its model calls cost and its trace; the
        conversation now asks over ``collections``."""
        with self._transaction() as db:
            conversation = _conversation_row(db, conversation_id, lock=True)
            conversation.collections = list(collections)
            conversation.updated_at = utcnow()
            number = (
                db.scalar(
                    select(func.max(KnowledgeTurn.number)).where(KnowledgeTurn.conversation_id == conversation_id)
                )
                or 0
            ) + 1
            turn = KnowledgeTurn(conversation_id=conversation_id, number=number, question=question, answer=answer)
            if usage is not None:
                turn.model = usage.model
                _put_usage(turn, usage)
            if trace is not None:
                turn.trace = _json(trace)
            return KnowledgeTurnRecord.model_validate(_add(db, turn))

    def list_knowledge_turns(self, conversation_id: str, *, last: int | None = None) -> list[KnowledgeTurnRecord]:
        """The conversation's turns, oldest first (only the ``last`` ones when given)."""
        if last is not None and last < 0:
            raise ValueError(f"last must be 0 or more, not {last}")
        query = (
            select(KnowledgeTurn)
            .where(KnowledgeTurn.conversation_id == conversation_id)
            .order_by(KnowledgeTurn.number.desc())
        )
        if last is not None:
            query = query.limit(last)
        with self._transaction() as db:
            _conversation_row(db, conversation_id)
            return _records(db, query, KnowledgeTurnRecord)[::-1]

    def clear_knowledge_turns(self, conversation_id: str, *, user_id: str | None = None) -> int:
        """Forget the conversation's history (it stays, with its collections); returns how many turns went."""
        with self._transaction() as db:
            _conversation_row(db, conversation_id, user_id=user_id, lock=True)
            removed = delete(KnowledgeTurn).where(KnowledgeTurn.conversation_id == conversation_id)
            return len(db.execute(removed.returning(KnowledgeTurn.id)).all())

    def delete_knowledge_conversation(self, conversation_id: str, *, user_id: str | None = None) -> None:
        """Forget the conversation and its turns; NotFound as for `get_knowledge_conversation`."""
        with self._transaction() as db:
            row = _conversation_row(db, conversation_id, user_id=user_id)
            db.execute(delete(KnowledgeTurn).where(KnowledgeTurn.conversation_id == conversation_id))
            db.delete(row)

    # --- fencing (the Ray backend's session actors) ---

    def take_epoch(self, session_id: str, holder: str) -> int:
        """Start a new epoch of the session's sandbox for ``holder``; returns it (1, 2, …), atomically."""
        now = utcnow()
        with self._transaction() as db:
            dialect = postgresql if db.get_bind().dialect.name == "postgresql" else sqlite
            upsert = dialect.insert(SessionEpoch).values(session_id=session_id, epoch=1, holder=holder, updated_at=now)
            upsert = upsert.on_conflict_do_update(
                index_elements=[SessionEpoch.session_id],
                set_={"epoch": SessionEpoch.epoch + 1, "holder": holder, "updated_at": now},
            )
            return int(db.execute(upsert.returning(SessionEpoch.epoch)).scalar_one())

    def current_epoch(self, session_id: str) -> int:
        """The session's newest epoch; 0 when no sandbox of it ever started.

        Checked before every write of a session actor, so it is one statement on a kept connection
        (`EpochReader`), not a pooled transaction.
        """
        with self._epochs_lock:
            if self._epochs is None:
                self._epochs = EpochReader(self._engine)
            epochs = self._epochs
        try:
            return epochs.current(session_id)
        except epochs.errors as error:  # the driver's own errors: no SQLAlchemy wrapper on this path
            raise self._unavailable(error) from error

    # --- replicas: which processes answering questions still live (by the database's clock) ---

    def beat(self, owner: str, *, forget_after_s: float = beats.FORGET_AFTER_S) -> None:
        """Record that ``owner`` (a process, `bunseki.owners.process_owner`) lives, as of the database's
        now; processes silent for over ``forget_after_s`` are forgotten on the way."""
        with self._transaction() as db:
            beats.beat(db, owner, forget_after_s=forget_after_s)

    def beat_ages(self, owners: Iterable[str]) -> dict[str, float]:
        """Seconds since each of ``owners`` last beat, by the database's clock; those never seen (or
        forgotten) are left out."""
        with self._transaction() as db:
            return beats.ages(db, owners)

    def forget_replica(self, owner: str) -> None:
        """``owner`` stops cleanly: its record goes."""
        with self._transaction() as db:
            beats.forget(db, owner)

    @contextmanager
    def _transaction(self) -> Iterator[OrmSession]:
        """One transaction; a constraint that a simultaneous change made fail becomes Conflict."""
        try:
            with self._orm.begin() as db:
                yield db
        except IntegrityError as error:
            reason = str(error.orig).splitlines()[0]
            raise Conflict(f"The change clashed with another made at the same time ({reason}); try again.") from error
        except (OperationalError, InterfaceError) as error:
            raise self._unavailable(error) from error
        except DataError as error:  # a value the database cannot hold, e.g. a NUL character (PostgreSQL)
            reason = str(error.orig or error).strip().splitlines()[0]
            message = f"The database cannot store this value ({reason}); change it and try again."
            raise InputError(message) from error

    def _unavailable(self, error: Exception) -> StorageError:
        reason = (str(getattr(error, "orig", None) or error).strip().splitlines() or [type(error).__name__])[0]
        return StorageError(
            f"The database at {self._where} cannot be used: {reason}. Check BUNSEKI_DATABASE_URL, "
            "that the server is running and reachable, and that the disk has room."
        )


def _digest(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def _add(db: OrmSession, row: _Row) -> _Row:
    """Insert the row now, so that its defaults (id, created_at) are filled in."""
    db.add(row)
    db.flush()
    return row


def _put_usage(row: UsageColumns, usage: TurnUsage) -> None:
    """Write ``usage``'s counts into the row's usage columns (its model is the caller's to write)."""
    row.llm_calls, row.cost, row.llm_seconds = usage.calls, usage.cost, usage.seconds
    row.prompt_tokens, row.completion_tokens = usage.prompt_tokens, usage.completion_tokens


def _summed(before: TurnUsage, added: TurnUsage) -> TurnUsage:
    """Two usages of one run added up (its model stays the run's)."""
    summed = total([before, added]) or added  # never empty: two usages given
    return summed.model_copy(update={"model": before.model, "seconds": round(summed.seconds, 3)})


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, default=str)


def _records(db: OrmSession, query: Select[Any], record: type[_Record]) -> list[_Record]:
    return [record.model_validate(row) for row in db.scalars(query)]


def _next(
    db: OrmSession, column: InstrumentedAttribute[int], session: InstrumentedAttribute[str], session_id: str
) -> int:
    """The position (or number) after the session's last one; call it with the session row locked."""
    return (db.scalar(select(func.max(column)).where(session == session_id)) or 0) + 1


def _session_row(db: OrmSession, session_id: str, *, user_id: str | None = None, lock: bool = False) -> AnalysisSession:
    """The session, locked against other appends when asked; NotFound if missing or someone else's."""
    query = select(AnalysisSession).where(AnalysisSession.id == session_id)
    if lock:
        # NO KEY UPDATE still lets other transactions insert rows that refer to the session.
        query = query.with_for_update(key_share=True)
    row = db.scalar(query)
    if row is None or (user_id is not None and row.user_id != user_id):
        raise NotFound(f"There is no session {session_id} here; list the sessions to find its id.")
    return row


def _check_turn(db: OrmSession, session_id: str, turn_id: str | None) -> None:
    if turn_id is None:
        return
    turn = db.get(Turn, turn_id)
    if turn is None or turn.session_id != session_id:
        raise NotFound(f"Session {session_id} has no turn {turn_id}.")


def _snapshot_row(db: OrmSession, session_id: str, snapshot_id: str) -> Snapshot:
    row = db.scalar(select(Snapshot).where(Snapshot.id == snapshot_id, Snapshot.session_id == session_id))
    if row is None:
        raise NotFound(f"Session {session_id} has no snapshot {snapshot_id}; list its snapshots to find one.")
    return row


def _eda_run_row(db: OrmSession, run_id: str, *, user_id: str | None = None) -> EdaRun:
    row = db.get(EdaRun, run_id)
    if row is None or (user_id is not None and row.user_id != user_id):
        raise NotFound(f"There is no EDA run {run_id} here; list the runs to find its id.")
    return row


def _conversation_row(
    db: OrmSession, conversation_id: str, *, user_id: str | None = None, lock: bool = False
) -> KnowledgeConversation:
    """The conversation (locked against other appends when asked); NotFound if missing or someone else's."""
    query = select(KnowledgeConversation).where(KnowledgeConversation.id == conversation_id)
    if lock:
        query = query.with_for_update(key_share=True)
    row = db.scalar(query)
    if row is None or (user_id is not None and row.user_id != user_id):
        raise NotFound(f"There is no conversation {conversation_id} here; start one to ask over the knowledge base.")
    return row

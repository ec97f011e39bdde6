"""The knowledge chat as a service: ask over collections, chat with history, the unanswered log.

Interfaces (CLI, API, UI) use `KnowledgeService`, the knowledge models of `bunseki.domain` (`Answer`,
`Conversation`, `UnansweredQuestion`, `Collection`, `SourceDocument`, `IngestResult`) and `QaPair`,
never Qdrant objects or graph state. One service holds
one knowledge base (embedded Qdrant allows one open instance per folder) and one compiled graph, so
a batch loads the index once.

Collections are shared by everyone who uses the service. Conversations (`start_conversation`) belong
to the user who started them and are kept in the store (SQLite or PostgreSQL), so their history
survives a restart and is shared by every process on the same database.
"""

from __future__ import annotations

import csv
import io
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path, PurePosixPath
from types import TracebackType
from typing import TYPE_CHECKING, Any, BinaryIO, Final

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from pydantic import BaseModel

from bunseki.brain.language import detect_language
from bunseki.deadline import turn_deadline
from bunseki.domain import (
    Answer,
    AnswerStatus,
    Citation,
    Collection,
    CollectionInfo,
    Conversation,
    ConversationTurn,
    IngestReport,
    IngestResult,
    KnowledgeConversation,
    Listener,
    ProgressCallback,
    Reflection,
    SourceDocument,
    Thought,
    UnansweredQuestion,
)
from bunseki.errors import BunsekiError, ConfigurationError, Conflict, InputError, NotFound, UnsupportedFileType
from bunseki.service.inputs import CONTROL, UNSAFE_NAME, checked_length, write_limited
from bunseki.settings import Settings
from bunseki.tracing import TurnRecorder, flush_tracers, turn_config

if TYPE_CHECKING:
    from langgraph.graph.state import CompiledStateGraph

    from bunseki.agents.knowledge import Searchable
    from bunseki.brain.knowledge.contract import KnowledgeBrain
    from bunseki.rag import KnowledgeBase
    from bunseki.store import Store

SOURCE: Final = "knowledge"  # the unanswered log's source for this chat
HISTORY_TURNS: Final = 5
CSV_COLUMNS: Final = ("created_at", "question", "collections", "reason")
MAX_TURNS: Final = 100  # a conversation shows its latest turns (the model sees the last HISTORY_TURNS)
QA_PREVIEW: Final = 50


class QaPair(BaseModel):
    """A registered question and answer (a row of an ingested Q&A table)."""

    collection: str
    source: str
    question: str
    text: str


class KnowledgeService:
    """Answers questions from knowledge-base collections; close it (or use ``with``) when done."""

    def __init__(
        self,
        settings: Settings,
        *,
        knowledge_base: Searchable | None = None,
        store: Store | None = None,
        brains: dict[str, KnowledgeBrain] | None = None,
    ) -> None:
        self.settings = settings
        self._knowledge_base = knowledge_base
        self._owns_knowledge_base = knowledge_base is None
        self._store = store
        self._owns_store = store is None
        self._brains: dict[str, KnowledgeBrain] = dict(brains or {})
        self._graph: CompiledStateGraph[Any, Any, Any, Any] | None = None

    # --- resources, opened on first use ---

    @property
    def knowledge_base(self) -> Searchable:
        if self._knowledge_base is None:
            from bunseki.rag import KnowledgeBase

            self._knowledge_base = KnowledgeBase.open(self.settings)
        return self._knowledge_base

    @property
    def graph(self) -> CompiledStateGraph[Any, Any, Any, Any]:
        if self._graph is None:
            from bunseki.agents.knowledge import build

            self._graph = build()
        return self._graph

    @property
    def store(self) -> Store:
        if self._store is None:
            from bunseki.store import Store

            self._store = Store.from_settings(self.settings)
        return self._store

    def close(self) -> None:
        if self._owns_knowledge_base and self._knowledge_base is not None:
            close = getattr(self._knowledge_base, "close", None)
            if close is not None:
                close()
            self._knowledge_base = None
        if self._owns_store and self._store is not None:
            self._store.close()
            self._store = None

    def __enter__(self) -> KnowledgeService:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self.close()

    # --- collections and documents (shared by every user of the service) ---

    def collection_names(self) -> list[str]:
        return [info.name for info in self.knowledge_base.collections()]

    def collections(self) -> list[Collection]:
        """Every collection with its counts, by name."""
        return [Collection.model_validate(info, from_attributes=True) for info in self.knowledge_base.collections()]

    def collection_details(self) -> list[CollectionInfo]:
        """Every collection with its counts and where it is kept (a folder, or the Qdrant server's URL)."""
        return list(self._managed().collections())

    def create_collection(self, name: str) -> Collection:
        """A new, empty collection: InputError for a name that cannot be one, Conflict if it exists."""
        base = self._managed()
        _collection_name(name)
        if name in self.collection_names():
            raise Conflict(f"there is already a collection '{name}'; ingest into it, or choose another name.")
        return Collection.model_validate(base.create(name), from_attributes=True)

    def delete_collection(self, name: str) -> None:
        """Delete a collection and its chunks; NotFound if there is none of that name."""
        self._managed().delete(self._existing(name))

    def documents(self, name: str) -> list[SourceDocument]:
        """The files ingested into a collection, by source; NotFound if there is none of that name."""
        return [
            SourceDocument.model_validate(item.model_dump() | {"collection": name})
            for item in self._managed().documents(self._existing(name))
        ]

    def qa_pairs(self, names: Sequence[str], *, limit: int = QA_PREVIEW) -> list[QaPair]:
        """Up to ``limit`` registered Q&A pairs (rows of ingested Q&A tables) of the collections given."""
        base = self._managed()
        pairs: list[QaPair] = []
        for name in dict.fromkeys(names):
            for chunk in base.chunks(self._existing(name), kind="qa", limit=limit - len(pairs)):
                pairs.append(QaPair(collection=name, source=chunk.source, question=chunk.heading, text=chunk.text))
            if len(pairs) >= limit:
                break
        return pairs

    def ingest(
        self, paths: Sequence[Path], collection: str, *, progress: ProgressCallback | None = None
    ) -> IngestReport:
        """Bring ``collection`` (created if missing) up to date with ``paths``: files, or directories
        walked recursively; unchanged files are skipped and files gone from a directory removed."""
        return self._managed().ingest(paths, collection, progress=progress)

    def ingest_uploads(
        self, collection: str, files: Sequence[tuple[str | None, BinaryIO]], *, max_bytes: int | None = None
    ) -> IngestResult:
        """Ingest uploaded files (name, content) into ``collection`` (created if missing).

        Only the last component of each name is used; the types are checked before anything is
        written (UnsupportedFileType), and at most ``max_bytes`` are copied in all (UploadTooLarge).
        A file sent again under the same name replaces its earlier chunks if it changed.
        """
        base = self._managed()
        _collection_name(collection)
        if not files:
            raise InputError("no files were sent: upload at least one document.")
        names = [document_name(name) for name, _ in files]
        if len(set(names)) < len(names):
            raise InputError("two of the files have the same name; send them in separate uploads.")
        with tempfile.TemporaryDirectory(prefix="bunseki-kb-upload-") as directory:
            paths: list[Path] = []
            budget = max_bytes
            for name, (_, content) in zip(names, files, strict=True):
                path = Path(directory) / name
                write_limited(path, content, budget)
                if budget is not None:
                    budget -= path.stat().st_size
                paths.append(path)
            report = base.ingest(paths, collection)
        return IngestResult.model_validate(report.model_dump() | {"seconds": round(report.seconds, 3)})

    def available_models(self) -> list[str]:
        """Model specs worth offering: offline first, then the configured model and providers with keys."""
        from bunseki.llm import available_models

        return available_models(self.settings)

    def _managed(self) -> KnowledgeBase:
        from bunseki.rag import KnowledgeBase

        base = self.knowledge_base
        if not isinstance(base, KnowledgeBase):
            raise ConfigurationError("this knowledge base can be searched but not managed.")
        return base

    def _existing(self, name: str) -> str:
        """``name`` if a collection has it (checked before Qdrant sees a name that cannot be one)."""
        known = self.collection_names()
        if name not in known:
            raise NotFound(f"there is no collection '{name}' (collections: {', '.join(known) or 'none yet'}).")
        return name

    # --- asking ---

    def ask(
        self,
        question: str,
        collections: Sequence[str],
        model: str | None = None,
        *,
        history: Sequence[tuple[str, str]] = (),
        on_event: Listener | None = None,
        recorder: TurnRecorder | None = None,
    ) -> Answer:
        """Answer ``question`` from ``collections``; ``history`` holds earlier (question, answer) turns.
        ``recorder`` (a new one by default) counts the model calls into the answer's usage and keeps the trace.

        ``on_event`` receives the thought process as it happens (node_started, thought, observation,
        finished) and, from a model that streams, the final answer as it is written (answer_delta,
        answer_reset: the deltas after the last reset join to the answer returned). Raises
        InputError for an empty question or no collection, NotFound for an unknown collection,
        ConfigurationError for a model spec that cannot be used. A model that fails mid-answer gives
        an answer with status "error".
        """
        from bunseki.agents.knowledge import MAX_STEPS, KnowledgeContext, recursion_limit

        started = time.perf_counter()
        text = checked_length(question, self.settings.max_question_chars).strip()
        if not text:
            raise InputError("the question is empty; ask something.")
        if CONTROL.search(text):
            raise InputError("the question contains a control character (such as NUL); remove it and try again.")
        names = list(dict.fromkeys(collections))
        if not names:
            raise InputError("choose at least one collection to search (--collection NAME).")
        known = set(self.collection_names())
        missing = [name for name in names if name not in known]
        if missing:
            listed = ", ".join(sorted(known)) or "none yet"
            raise NotFound(f"there is no collection {', '.join(map(repr, missing))} (collections: {listed}).")
        brain = self._brain(model)
        listened = on_event is not None  # the answer is streamed only to someone who follows it
        context = KnowledgeContext(
            knowledge_base=self.knowledge_base, brain=brain, log_unanswered=self._log, stream_answer=listened
        )
        messages: list[BaseMessage] = []
        for asked, answered in list(history)[-HISTORY_TURNS:]:
            messages += [HumanMessage(asked), AIMessage(answered)]
        inputs = {
            "messages": [*messages, HumanMessage(text)],
            "question": text,
            "collections": names,
            "language": detect_language(text),
            "max_steps": MAX_STEPS,
        }
        recorder = recorder or TurnRecorder()
        config: Any = {"recursion_limit": recursion_limit(MAX_STEPS), **turn_config(recorder, bunseki_knowledge=SOURCE)}
        state: dict[str, Any] = {}
        with turn_deadline(self.settings.turn_deadline_s):
            for mode, value in self.graph.stream(inputs, config, context=context, stream_mode=["custom", "values"]):
                if mode == "custom" and isinstance(value, dict) and on_event is not None:
                    on_event(value)
                elif mode == "values" and isinstance(value, dict):
                    state = value
        flush_tracers()  # LangSmith's runs of the answer (when tracing is on) are sent
        answer = _answer(state, text, names, brain.name, started)
        answer.usage = recorder.usage(brain.name, self.settings.llm_prices)
        return answer

    def chat(
        self, collections: Sequence[str], model: str | None = None, *, conversation_id: str | None = None
    ) -> KnowledgeChat:
        """A stored conversation over ``collections`` (a new one, or ``conversation_id`` resumed)."""
        if conversation_id is None:
            conversation = self.start_conversation(collections, model)
        else:
            conversation = self.conversation(conversation_id)
        return KnowledgeChat(self, conversation.id, list(collections) or conversation.collections)

    # --- conversations (in the store, each belongs to the user who started it) ---

    def start_conversation(
        self, collections: Sequence[str] = (), model: str | None = None, *, user_id: str | None = None
    ) -> Conversation:
        """A new conversation over ``collections`` (NotFound for an unknown one) with ``model``."""
        names = [self._existing(name) for name in dict.fromkeys(collections)]
        self._brain(model)  # refuse a model spec that cannot be used before anything is kept
        return Conversation.model_validate(
            self.store.create_knowledge_conversation(collections=names, model=model, user_id=user_id)
        )

    def conversation(self, conversation_id: str, *, user_id: str | None = None) -> Conversation:
        """A conversation with its turns; NotFound if there is none, or it is another user's."""
        record = self._conversation(conversation_id, user_id)
        turns = [
            ConversationTurn(question=turn.question, answer=Answer.model_validate(turn.answer | {"usage": turn.usage}))
            for turn in self.store.list_knowledge_turns(conversation_id, last=MAX_TURNS)
        ]
        return Conversation.model_validate(record.model_dump() | {"turns": turns})

    def ask_in_conversation(
        self,
        conversation_id: str,
        question: str,
        *,
        collections: Sequence[str] | None = None,
        model: str | None = None,
        user_id: str | None = None,
        on_event: Listener | None = None,
    ) -> Answer:
        """Answer ``question`` with the conversation's earlier turns; ``collections`` replace its own,
        ``model`` (when given) answers this question instead of the conversation's."""
        record = self._conversation(conversation_id, user_id)
        history = [
            (turn.question, str(turn.answer.get("answer", "")))
            for turn in self.store.list_knowledge_turns(conversation_id, last=HISTORY_TURNS)
            if turn.answer.get("status") != "error"
        ]
        names = list(dict.fromkeys(collections)) if collections else list(record.collections)
        recorder = TurnRecorder()
        answer = self.ask(question, names, model or record.model, history=history, on_event=on_event, recorder=recorder)
        trace = recorder.trace(model=answer.model, status=answer.status, error=_error_of(answer))
        self.store.add_knowledge_turn(
            conversation_id,
            question=answer.question,
            answer=answer.model_dump(mode="json", exclude={"usage"}),  # the usage has its own columns
            collections=names,
            usage=answer.usage,
            trace=trace,
        )
        return answer

    def clear_conversation(self, conversation_id: str, *, user_id: str | None = None) -> int:
        """Forget a conversation's history (it keeps its collections and model); how many turns went."""
        return self.store.clear_knowledge_turns(conversation_id, user_id=user_id)

    def delete_conversation(self, conversation_id: str, *, user_id: str | None = None) -> None:
        """Forget a conversation; NotFound if there is none, or it is another user's."""
        self.store.delete_knowledge_conversation(conversation_id, user_id=user_id)

    def _conversation(self, conversation_id: str, user_id: str | None) -> KnowledgeConversation:
        # single-user mode (user_id None) sees every conversation; a user sees only their own
        try:
            return self.store.get_knowledge_conversation(conversation_id, user_id=user_id)
        except NotFound:
            raise NotFound(
                f"there is no conversation '{conversation_id}'; start one with POST /conversations."
            ) from None

    # --- the unanswered log ---

    def unanswered(self) -> list[UnansweredQuestion]:
        """Questions of the knowledge chat that went unanswered, oldest first."""
        return [UnansweredQuestion.model_validate(logged) for logged in self.store.list_unanswered(source=SOURCE)]

    def unanswered_csv(self) -> str:
        """The unanswered questions as CSV: created_at, question, collections (joined by ';'), reason."""
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(CSV_COLUMNS)
        for item in self.unanswered():
            writer.writerow([item.created_at.isoformat(), item.question, ";".join(item.collections), item.reason])
        return buffer.getvalue()

    def _log(self, *, question: str, collections: list[str], reason: str) -> None:
        self.store.add_unanswered(question=question, reason=reason, source=SOURCE, collections=collections)

    def _brain(self, model: str | None) -> KnowledgeBrain:
        from bunseki.brain.factory import create_knowledge_brain
        from bunseki.llm import parse_model_spec

        spec = str(parse_model_spec(model or self.settings.model))
        if spec not in self._brains:
            base = self.knowledge_base
            self._brains[spec] = create_knowledge_brain(
                spec,
                self.settings,
                embedder=getattr(base, "answer_embedder", None),
                lexicon=getattr(base, "lexicon", None),
            )
        return self._brains[spec]


class KnowledgeChat:
    """One stored conversation as the CLI chat uses it: ask, and clear the history."""

    def __init__(self, service: KnowledgeService, conversation_id: str, collections: list[str]) -> None:
        self.service = service
        self.conversation_id = conversation_id
        self.collections = collections

    def ask(self, question: str) -> Answer:
        return self.service.ask_in_conversation(self.conversation_id, question, collections=self.collections)

    def history(self) -> list[ConversationTurn]:
        return self.service.conversation(self.conversation_id).turns

    def clear(self) -> int:
        return self.service.clear_conversation(self.conversation_id)


def document_suffixes() -> tuple[str, ...]:
    """The file types a collection takes in (``.md``, ``.pdf``, ``.csv``…), lower case with the dot."""
    from bunseki.rag import SUPPORTED_SUFFIXES  # on use: Qdrant's client alone takes about a second to import

    return SUPPORTED_SUFFIXES


def document_name(file_name: str | None) -> str:
    """An uploaded document's own name, without directories or characters file systems refuse."""
    given = (file_name or "").encode("utf-8", "replace").decode("utf-8")  # no lone surrogates in a file name
    name = UNSAFE_NAME.sub("_", PurePosixPath(given.replace("\\", "/")).name).strip(" .")
    suffix = PurePosixPath(name).suffix.lower()
    if suffix not in (suffixes := document_suffixes()):
        raise UnsupportedFileType(
            f"'{given}' is not a document type the knowledge base reads ({suffix or 'no extension'}); "
            f"send one of: {', '.join(suffixes)}"
        )
    stem = PurePosixPath(name).stem[:150]
    while len(stem.encode()) > 150:  # file systems count bytes (255 at most)
        stem = stem[:-1]
    return (stem or "document") + suffix


def _collection_name(name: str) -> str:
    """``name`` if it can name a collection; InputError otherwise (before Qdrant makes a folder of it)."""
    from bunseki.rag.store import validate_collection_name

    try:
        encoded = name.encode("utf-8")
    except UnicodeEncodeError:
        raise InputError("a collection name must be valid Unicode text.") from None
    if len(encoded) > 200:
        raise InputError("a collection name can be at most 200 bytes long in UTF-8; choose a shorter one.")
    return validate_collection_name(name)


def error_answer(question: str, collections: Sequence[str], model: str, error: BaseException) -> Answer:
    """The answer object of a question that failed before or outside the loop (a batch keeps going)."""
    message = f"{type(error).__name__}: {error}" if isinstance(error, BunsekiError) else f"internal error: {error!r}"
    return Answer(
        question=question,
        status="error",
        answer=message,
        reflection=Reflection(draft=None, final=message, changed=False),
        collections=list(collections),
        model=model,
        elapsed_ms=0,
        reason=message,
    )


def _error_of(answer: Answer) -> str | None:
    return answer.reason if answer.status == "error" else None


def _answer(state: dict[str, Any], question: str, collections: list[str], model: str, started: float) -> Answer:
    from bunseki.brain.knowledge.contract import Passage

    status: AnswerStatus = state.get("status", "error")
    if status not in ("answered", "unanswered"):
        status = "error"
    passages: list[Passage] = state.get("passages", [])
    cited = [passages[number - 1] for number in state.get("cited", []) if 0 < number <= len(passages)]
    draft: str | None = state.get("draft")
    if status == "error":
        final = f"ModelError: {state.get('error') or 'the model gave no answer'}"
    else:
        final = state.get("final") or ""
    thoughts: list[Thought] = state.get("thoughts", [])
    return Answer(
        question=question,
        status=status,
        answer=final,
        citations=[Citation.model_validate(passage.model_dump()) for passage in cited],
        thoughts=thoughts,
        reflection=Reflection(draft=draft, final=final, changed=draft is not None and draft != final),
        collections=collections,
        model=model,
        elapsed_ms=round((time.perf_counter() - started) * 1000),
        reason=state.get("reason") or (state.get("error") if status == "error" else None),
    )

"""The knowledge chat as a service: ask over collections, chat with history, the unanswered log.

Interfaces (CLI, API, UI) use `KnowledgeService` and the view objects here (`Answer`, `Citation`,
`UnansweredQuestion`), never store records or graph state. One service holds one knowledge base
(embedded Qdrant allows one open instance per folder) and one compiled graph, so a batch loads the
index once.
"""

from __future__ import annotations

import csv
import io
import time
from collections.abc import Sequence
from datetime import datetime
from types import TracebackType
from typing import TYPE_CHECKING, Any, Final, Literal

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from pydantic import BaseModel, Field

from bunseki.brain.language import detect_language
from bunseki.errors import BunsekiError, InputError, NotFound
from bunseki.settings import Settings

if TYPE_CHECKING:
    from bunseki.agents.knowledge import Searchable
    from bunseki.brain.knowledge import KnowledgeBrain
    from bunseki.store import Store

AnswerStatus = Literal["answered", "unanswered", "error"]
SOURCE: Final = "knowledge"  # the unanswered log's source for this chat
HISTORY_TURNS: Final = 5
CSV_COLUMNS: Final = ("created_at", "question", "collections", "reason")


class Citation(BaseModel):
    """A passage an answer rests on: where it is (source, heading, chunk) and its text."""

    source: str
    title: str
    heading: str
    chunk_id: str
    score: float
    text: str


class Thought(BaseModel):
    """One record of the thought process: a thought, a tool call, an observation, the draft, the Reflection."""

    step: int
    kind: str
    content: str = ""
    tool: str | None = None
    arguments: dict[str, Any] | None = None


class Reflection(BaseModel):
    """The draft before Reflection, the final answer after it, and whether Reflection changed it."""

    draft: str | None
    final: str
    changed: bool


class Answer(BaseModel):
    """The answer to one question: the JSON contract of ``bunseki kb ask`` (and the API)."""

    question: str
    status: AnswerStatus
    answer: str
    citations: list[Citation] = Field(default_factory=list)
    thoughts: list[Thought] = Field(default_factory=list)
    reflection: Reflection
    collections: list[str]
    model: str
    elapsed_ms: int
    reason: str | None = None


class UnansweredQuestion(BaseModel):
    """A knowledge question that went unanswered: when, over which collections, and why."""

    question: str
    collections: list[str]
    reason: str
    created_at: datetime


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
        from bunseki.agents.knowledge import build

        self.settings = settings
        self._knowledge_base = knowledge_base
        self._owns_knowledge_base = knowledge_base is None
        self._store = store
        self._owns_store = store is None
        self._brains: dict[str, KnowledgeBrain] = dict(brains or {})
        self._graph = build()

    # --- resources, opened on first use ---

    @property
    def knowledge_base(self) -> Searchable:
        if self._knowledge_base is None:
            from bunseki.rag import KnowledgeBase

            self._knowledge_base = KnowledgeBase.open(self.settings)
        return self._knowledge_base

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

    # --- asking ---

    def collection_names(self) -> list[str]:
        return [info.name for info in self.knowledge_base.collections()]

    def ask(
        self,
        question: str,
        collections: Sequence[str],
        model: str | None = None,
        *,
        history: Sequence[tuple[str, str]] = (),
    ) -> Answer:
        """Answer ``question`` from ``collections``; ``history`` holds earlier (question, answer) turns.

        Raises InputError for an empty question or no collection, NotFound for an unknown collection,
        ConfigurationError for a model spec that cannot be used. A model that fails mid-answer gives
        an answer with status "error".
        """
        from bunseki.agents.knowledge import MAX_STEPS, KnowledgeContext, recursion_limit

        started = time.perf_counter()
        text = question.strip()
        if not text:
            raise InputError("the question is empty; ask something.")
        names = list(dict.fromkeys(collections))
        if not names:
            raise InputError("choose at least one collection to search (--collection NAME).")
        known = set(self.collection_names())
        missing = [name for name in names if name not in known]
        if missing:
            listed = ", ".join(sorted(known)) or "none yet"
            raise NotFound(f"there is no collection {', '.join(map(repr, missing))} (collections: {listed}).")
        brain = self._brain(model)
        context = KnowledgeContext(knowledge_base=self.knowledge_base, brain=brain, log_unanswered=self._log)
        messages: list[BaseMessage] = []
        for asked, answered in list(history)[-HISTORY_TURNS:]:
            messages += [HumanMessage(asked), AIMessage(answered)]
        state = self._graph.invoke(
            {
                "messages": [*messages, HumanMessage(text)],
                "question": text,
                "collections": names,
                "language": detect_language(text),
                "max_steps": MAX_STEPS,
            },
            {"recursion_limit": recursion_limit(MAX_STEPS)},
            context=context,
        )
        return _answer(state, text, names, brain.name, started)

    def chat(self, collections: Sequence[str], model: str | None = None) -> KnowledgeChat:
        """A conversation over ``collections`` that remembers its turns in memory."""
        return KnowledgeChat(self, list(collections), model)

    # --- the unanswered log ---

    def unanswered(self) -> list[UnansweredQuestion]:
        """Questions of the knowledge chat that went unanswered, oldest first."""
        return [
            UnansweredQuestion(
                question=record.question,
                collections=record.collections,
                reason=record.reason,
                created_at=record.created_at,
            )
            for record in self.store.list_unanswered(source=SOURCE)
        ]

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
        from bunseki.llm import create_knowledge_brain, parse_model_spec

        spec = str(parse_model_spec(model or self.settings.model))
        if spec not in self._brains:
            base = self.knowledge_base
            self._brains[spec] = create_knowledge_brain(
                spec, self.settings, embedder=getattr(base, "embedder", None), lexicon=getattr(base, "lexicon", None)
            )
        return self._brains[spec]


class KnowledgeChat:
    """A knowledge conversation kept in memory (the CLI chat): ask, and clear the history."""

    def __init__(self, service: KnowledgeService, collections: list[str], model: str | None) -> None:
        self.service = service
        self.collections = collections
        self.model = model
        self.history: list[tuple[str, str]] = []

    def ask(self, question: str) -> Answer:
        answer = self.service.ask(question, self.collections, self.model, history=self.history)
        if answer.status != "error":
            self.history.append((answer.question, answer.answer))
        return answer

    def clear(self) -> None:
        self.history.clear()


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


def _answer(state: dict[str, Any], question: str, collections: list[str], model: str, started: float) -> Answer:
    from bunseki.agents.knowledge import ThoughtStep
    from bunseki.brain.knowledge import Passage

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
    thoughts: list[ThoughtStep] = state.get("thoughts", [])
    return Answer(
        question=question,
        status=status,
        answer=final,
        citations=[
            Citation(
                source=passage.source,
                title=passage.title,
                heading=passage.heading,
                chunk_id=passage.chunk_id,
                score=passage.score,
                text=passage.text,
            )
            for passage in cited
        ],
        thoughts=[Thought.model_validate(thought.model_dump()) for thought in thoughts],
        reflection=Reflection(draft=draft, final=final, changed=draft is not None and draft != final),
        collections=collections,
        model=model,
        elapsed_ms=round((time.perf_counter() - started) * 1000),
        reason=state.get("reason") or (state.get("error") if status == "error" else None),
    )

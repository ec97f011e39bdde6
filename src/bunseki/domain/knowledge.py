"""The knowledge chat: its collections and their documents, what an ingest did, what a search finds,
the answer to a question, and the conversations kept.

The knowledge base describes a collection (`CollectionInfo`), its files (`DocumentInfo`) and an
ingest (`IngestReport`, and `IngestProgress` after each file); the service shows them as
`Collection`, `SourceDocument` and `IngestResult`.
A `SearchHit` is a chunk a search found; the chat numbers the hits of a turn as passages to cite,
and an `Answer` cites them (`Citation`). `Answer` is the JSON contract of ``bunseki kb ask`` and of
``/api/v1/knowledge``. A `KnowledgeConversation` and its `KnowledgeTurn` rows are kept by the
store; `Conversation` is one as the interfaces show it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field

from bunseki.domain.forms import Entity, Omitted
from bunseki.domain.sessions import Unanswered
from bunseki.domain.usage import TurnUsage

AnswerStatus = Literal["answered", "unanswered", "error"]


class CollectionInfo(BaseModel):
    """What a collection holds: distinct documents (sources), chunks, what built its vectors, and
    where it is kept (a folder, or the Qdrant server's URL)."""

    model_config = ConfigDict(frozen=True)

    name: str
    documents: int
    chunks: int
    embedding_model: str
    location: str


class Collection(CollectionInfo):
    """A collection: how many documents (files) and chunks it holds, and the model of its vectors."""

    location: Omitted = None


class DocumentInfo(BaseModel):
    """One ingested file of a collection: its source (its name in the collection), title, kind and
    how many chunks it has."""

    model_config = ConfigDict(frozen=True)

    source: str
    title: str
    kind: str
    chunks: int


class SourceDocument(DocumentInfo):
    """A file ingested into a collection, with the collection's name."""

    collection: str


class IngestProblem(BaseModel):
    """A file of an ingest that could not be read; the others went in."""

    model_config = ConfigDict(frozen=True)

    source: str
    message: str


class IngestReport(BaseModel):
    """The outcome of an ingest.

    ``files`` counts the files looked at, ``chunks`` the chunks written (new or changed files only),
    ``skipped`` the unchanged files left as they were, ``removed`` the files whose chunks were deleted
    because they are gone from the ingested directory, ``embedded`` the chunks whose vectors were
    computed (not found in the cache); ``problems`` lists files that could not be read.
    """

    model_config = ConfigDict(frozen=True)

    collection: str
    files: int
    chunks: int
    skipped: int
    removed: int
    seconds: float
    embedded: int
    problems: tuple[IngestProblem, ...] = ()


class IngestResult(IngestReport):
    """What an ingest did: files looked at, chunks written, unchanged files skipped, unreadable files."""

    removed: Omitted = None
    embedded: Omitted = None


class SearchHit(BaseModel):
    """A chunk a search found. ``score`` ranks hits within one search only: it is not a probability."""

    model_config = ConfigDict(frozen=True)

    collection: str
    source: str = Field(description="The document's path in its collection.")
    title: str
    heading: str
    chunk_id: str = Field(description="source#n: the chunk's place in its document, from 0.")
    score: float
    text: str


class Citation(SearchHit):
    """A passage an answer rests on: where it is (source, heading, chunk) and its text.

    ``number`` is the ``[n]`` the answer cites it by (the passage's number in its turn, which need
    not be its place in the list); it is for showing the answer and is not part of the JSON."""

    collection: Omitted = None
    number: int | None = Field(default=None, exclude=True)


class Thought(BaseModel):
    """One record of the thought process shown with an answer: a thought, a tool call and its
    arguments, an observation, the draft, or the Reflection. ``step`` is the loop step (from 1)."""

    step: int
    kind: str = Field(description="thought, tool_call, observation, draft or reflection.")
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
    usage: TurnUsage | None = Field(default=None, description="What its model calls cost; null if unknown.")


class KnowledgeConversation(Entity):
    """A knowledge-chat conversation: its collections, model (None: the default) and owner."""

    id: str
    user_id: str | None
    collections: list[str]
    model: str | None
    created_at: AwareDatetime
    updated_at: AwareDatetime


class KnowledgeTurn(Entity):
    """One question of a knowledge conversation, numbered from 1, its answer (an `Answer` as JSON,
    without its usage), what its model calls cost and the model they went to, and its trace."""

    id: str
    conversation_id: str
    number: int
    question: str
    answer: dict[str, Any]
    created_at: AwareDatetime
    model: str | None = None
    usage: TurnUsage | None = None
    trace: dict[str, Any] | None = None


class ConversationTurn(BaseModel):
    """One question of a conversation and its answer."""

    question: str
    answer: Answer


class Conversation(KnowledgeConversation):
    """A knowledge conversation: the collections and model it asks with, and its turns, oldest first."""

    user_id: Omitted = None
    updated_at: Omitted = None
    turns: list[ConversationTurn] = Field(default_factory=list)


class UnansweredQuestion(Unanswered):
    """A knowledge question that went unanswered: when, over which collections, and why."""

    id: Omitted = None
    session_id: Omitted = None
    source: Omitted = None


@dataclass(frozen=True)
class IngestProgress:
    """Reported after each file of an ingest: how many are done of how many, and which one was last.

    A long file also reports while its chunks are embedded, a batch at a time: ``chunks_done`` of
    ``chunks_total`` for ``source`` (then ``files_done`` counts the files before it).
    """

    files_done: int
    files_total: int
    source: str
    chunks_done: int = 0
    chunks_total: int = 0


ProgressCallback = Callable[[IngestProgress], None]

"""Run dependencies of the knowledge graph: given per invocation, never checkpointed."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from bunseki.brain.knowledge.contract import DEFAULT_TOP_K, KnowledgeBrain
from bunseki.domain import CollectionInfo, SearchHit
from bunseki.rag.models import SearchMode


class Searchable(Protocol):
    """The part of `bunseki.rag.KnowledgeBase` the tools use."""

    def search(
        self, query: str, collections: Sequence[str], *, top_k: int = 5, mode: SearchMode = "hybrid"
    ) -> list[SearchHit]: ...

    def collections(self) -> list[CollectionInfo]: ...


class UnansweredLog(Protocol):
    """Where unanswered questions go (the store, through the service)."""

    def __call__(self, *, question: str, collections: list[str], reason: str) -> None: ...


@dataclass
class KnowledgeContext:
    """The knowledge base the tools search, the brain that judges, and where unanswered questions go.

    ``min_relevance``, when set, is a dense (cosine) score the best passage of a search must reach
    for the search to count as finding something; below it the tool answers ``[[NO_RAG_RESULT]]``.
    Off by default: e5 cosines are compressed and lower across languages (a Japanese question over
    an English passage that answers it scores below unrelated same-language text), so a fixed floor
    hides the right passage; the brain judges relevance from relative evidence instead.

    ``stream_answer``: someone follows the turn's events, so the Reflection's final answer is sent
    as ``answer_delta`` events while a streaming model writes it (nobody listens otherwise).
    """

    knowledge_base: Searchable
    brain: KnowledgeBrain
    top_k: int = DEFAULT_TOP_K
    min_relevance: float | None = None
    log_unanswered: UnansweredLog | None = None
    stream_answer: bool = False

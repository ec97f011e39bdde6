"""Run dependencies of the knowledge graph: given per invocation, never checkpointed."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from bunseki.brain.knowledge import DEFAULT_TOP_K, KnowledgeBrain
from bunseki.rag.models import CollectionInfo, SearchHit, SearchMode


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

    ``min_relevance`` is the dense (cosine) score the best passage of a search must reach for the
    search to count as finding something; below it the tool answers ``[[NO_RAG_RESULT]]``. The
    default suits multilingual-e5 (unrelated passages score about 0.75-0.80); None turns it off.
    """

    knowledge_base: Searchable
    brain: KnowledgeBrain
    top_k: int = DEFAULT_TOP_K
    min_relevance: float | None = 0.8
    log_unanswered: UnansweredLog | None = None

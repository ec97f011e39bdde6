"""The knowledge chat's two tools (search the knowledge base, list its collections), run by the graph's
``tools`` node against the knowledge base."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bunseki.agents.knowledge.context import KnowledgeContext
from bunseki.brain.knowledge.contract import MAX_TOP_K, NO_RAG_RESULT, SEARCH_MODES, Passage
from bunseki.errors import BunsekiError
from bunseki.rag.models import SearchMode

PASSAGE_CHARS = 1200  # of one passage shown to the model; citations keep the whole chunk


@dataclass
class SearchOutcome:
    """A search's observation text, the passages (all of this turn, renumbered), and the new ones' numbers."""

    observation: str
    passages: list[Passage]
    numbers: list[int] = field(default_factory=list)
    collections: list[str] = field(default_factory=list)

    @property
    def found(self) -> bool:
        return bool(self.numbers)


def search_rag_knowledge_base(
    context: KnowledgeContext,
    allowed: Sequence[str],
    known: list[Passage],
    arguments: dict[str, Any],
) -> SearchOutcome:
    """Search the chosen collections (only those the conversation allows; all of them when none is
    named). Passages seen earlier in the turn keep their numbers, new ones get the next."""
    query = str(arguments.get("query") or "").strip()
    asked = arguments.get("collections") or []
    names = [name for name in (asked if isinstance(asked, list) else [asked]) if name in allowed] or list(allowed)
    top_k = _top_k(arguments.get("top_k"), context.top_k)
    mode = search_mode(arguments)
    if not query:
        return SearchOutcome("Error: the query is empty; search again with a question or keywords.", known)
    if not names:
        return SearchOutcome(NO_RAG_RESULT + " (no collection is selected)", known)
    try:
        hits = context.knowledge_base.search(query, names, top_k=top_k, mode=mode)
        if hits and context.min_relevance is not None:
            dense = context.knowledge_base.search(query, names, top_k=top_k, mode="dense")
            if not dense or max(hit.score for hit in dense) < context.min_relevance:
                hits = []
    except BunsekiError as exc:
        return SearchOutcome(f"Error: {type(exc).__name__}: {exc}", known, collections=names)
    if not hits:
        return SearchOutcome(NO_RAG_RESULT, known, collections=names)
    passages = list(known)
    by_chunk = {(passage.collection, passage.chunk_id): passage for passage in passages}
    numbers: list[int] = []
    for hit in hits:
        passage = by_chunk.get((hit.collection, hit.chunk_id))
        if passage is None:
            passage = Passage(
                number=len(passages) + 1,
                collection=hit.collection,
                source=hit.source,
                title=hit.title,
                heading=hit.heading,
                chunk_id=hit.chunk_id,
                score=hit.score,
                text=hit.text,
            )
            passages.append(passage)
            by_chunk[(hit.collection, hit.chunk_id)] = passage
        numbers.append(passage.number)
    shown = [passages[number - 1] for number in numbers]
    observation = "\n\n".join(f"{passage.label()}\n{_clip(passage.text)}" for passage in shown)
    return SearchOutcome(observation, passages, numbers, names)


def list_rag_collections(context: KnowledgeContext, allowed: Sequence[str]) -> str:
    """The collections this conversation may search, with their sizes."""
    try:
        infos = {info.name: info for info in context.knowledge_base.collections()}
    except BunsekiError as exc:
        return f"Error: {type(exc).__name__}: {exc}"
    lines = [
        f"- {name}: {infos[name].documents} documents, {infos[name].chunks} chunks"
        if name in infos
        else f"- {name}: (not found)"
        for name in allowed
    ]
    return "\n".join(lines) if lines else "(no collection is selected)"


def search_mode(arguments: dict[str, Any]) -> SearchMode:
    """The search's mode: hybrid unless the call names dense or sparse."""
    mode = arguments.get("mode")
    return mode if mode in SEARCH_MODES else "hybrid"


def _top_k(value: Any, default: int) -> int:
    try:
        number = int(value) if value is not None else default
    except (TypeError, ValueError):
        number = default
    return max(1, min(MAX_TOP_K, number))


def _clip(text: str) -> str:
    return text if len(text) <= PASSAGE_CHARS else text[: PASSAGE_CHARS - 1] + "…"

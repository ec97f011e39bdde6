"""The knowledge chat's brain: what it sees, the two tools it may call, and how it answers.

At each step of the ReAct loop the graph asks the brain for the next message: a thought with tool
calls (``search_rag_knowledge_base``, ``list_rag_collections``), or a draft answer. After the loop
it asks for a Reflection on the draft (``Thought:`` / ``Final Answer:``), whose final answer streams
to an enclosing `bunseki.brain.streaming.streaming_answer` as the model writes it (never the thought
before it). The graph runs the tools; the brain only decides. Two brains: `LLMKnowledgeBrain` over
any chat model with the tools bound, and the extractive `OfflineKnowledgeBrain`.
"""

from __future__ import annotations

import re
from typing import Any, Final, Protocol, runtime_checkable

from langchain_core.messages import AIMessage, BaseMessage
from pydantic import BaseModel, ConfigDict, Field

from bunseki.domain import Language

SEARCH_TOOL: Final = "search_rag_knowledge_base"
LIST_TOOL: Final = "list_rag_collections"
NO_RAG_RESULT: Final = "[[NO_RAG_RESULT]]"
"""What a search returns when nothing relevant was found; the question is then logged as unanswered."""
NO_ANSWER: Final = "[[NO_ANSWER]]"
"""How a brain abstains: a draft or final answer that starts with this, followed by the reason."""
ATTEMPTS: Final = 2  # unreadable tool calls are sent back once; a Reflection stream that broke off is asked again once
DEFAULT_TOP_K: Final = 5
SEARCH_MODES: Final = ("hybrid", "dense", "sparse")
MAX_TOP_K: Final = 10

TOOL_SPECS: Final[list[dict[str, Any]]] = [
    {
        "type": "function",
        "function": {
            "name": SEARCH_TOOL,
            "description": (
                "Search the knowledge base for passages that answer a query. Returns numbered passages "
                f"with their source, heading and chunk id, or {NO_RAG_RESULT} when nothing relevant is found."
            ),
            "parameters": {
                "type": "object",
                "properties": {
                    "query": {"type": "string", "description": "What to look for: a question or keywords."},
                    "collections": {
                        "type": "array",
                        "items": {"type": "string"},
                        "description": "Collections to search; empty or omitted means every available one.",
                    },
                    "top_k": {
                        "type": "integer",
                        "description": f"How many passages to return (1-{MAX_TOP_K}, default {DEFAULT_TOP_K}).",
                    },
                    "mode": {
                        "type": "string",
                        "enum": list(SEARCH_MODES),
                        "description": (
                            "hybrid (default): meaning and words fused; dense: meaning only, best when the "
                            "documents may be in another language than the query; sparse: exact words only."
                        ),
                    },
                },
                "required": ["query"],
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": LIST_TOOL,
            "description": "List the knowledge-base collections available for this conversation.",
            "parameters": {"type": "object", "properties": {}},
        },
    },
]


class Passage(BaseModel):
    """A chunk a search found in this turn, numbered ``[n]`` for citing."""

    number: int
    collection: str
    source: str
    title: str
    heading: str
    chunk_id: str
    score: float
    text: str

    def label(self) -> str:
        """``[n] source › heading (chunk_id)``: how the passage is introduced to the brain."""
        where = self.source + (f" › {self.heading}" if self.heading else "")
        return f"[{self.number}] {where} ({self.chunk_id})"


class SearchRecord(BaseModel):
    """One search of this turn: the query and the numbers of the passages it returned."""

    query: str
    collections: list[str]
    numbers: list[int] = Field(default_factory=list)
    mode: str = "hybrid"


class KnowledgeView(BaseModel):
    """What the brain may see: the question, the conversation so far, what the searches found.

    ``messages`` is the conversation as a chat model reads it (earlier turns, this turn's question,
    its tool calls and their observations); rule-based brains use the structured fields.
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    question: str
    language: Language
    collections: list[str]
    messages: list[BaseMessage] = Field(default_factory=list)
    passages: list[Passage] = Field(default_factory=list)
    searches: list[SearchRecord] = Field(default_factory=list)
    listed_collections: bool = False
    step: int = 0
    max_steps: int = 10
    draft: str | None = None


@runtime_checkable
class KnowledgeBrain(Protocol):
    """Judgement for the knowledge chat: the next step of the loop, and the Reflection."""

    @property
    def name(self) -> str: ...

    def respond(self, view: KnowledgeView) -> AIMessage:
        """A thought with tool calls, or (no tool calls) the draft answer citing passages as [n]."""
        ...

    def reflect(self, view: KnowledgeView) -> str:
        """Check ``view.draft`` against the passages: ``Thought: …`` then ``Final Answer: …``."""
        ...


def message_text(message: BaseMessage) -> str:
    """The text of a message whose content may be a list of parts (Anthropic, Gemini)."""
    content = message.content
    if isinstance(content, str):
        return content
    return "".join(part.get("text", "") if isinstance(part, dict) else str(part) for part in content)


_FINAL = re.compile(r"(?:^|\n)\s*\**\s*Final Answer\s*\**\s*[:：]\s*", re.IGNORECASE)
_THOUGHT = re.compile(r"^\s*\**\s*Thought\s*\**\s*[:：]\s*", re.IGNORECASE)


def parse_reflection(text: str) -> tuple[str, str | None]:
    """(thought, final answer) of a Reflection reply; the final answer is None when there is no
    ``Final Answer:`` line, so the draft stands."""
    match = _FINAL.search(text)
    if match is None:
        return _THOUGHT.sub("", text).strip(), None
    thought = _THOUGHT.sub("", text[: match.start()]).strip()
    final = text[match.end() :].strip()
    return thought, final or None

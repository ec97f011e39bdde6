"""The knowledge graph's state: messages, the passages found and the thought process; no large objects."""

from __future__ import annotations

import operator
from typing import Annotated, Literal

from langchain_core.messages import AnyMessage
from langgraph.graph.message import add_messages
from pydantic import BaseModel, Field

from bunseki.brain.knowledge.contract import Passage, SearchRecord
from bunseki.domain import Language, Thought

Status = Literal["running", "answered", "unanswered", "error"]


class KnowledgeState(BaseModel):
    """One turn of the knowledge chat: earlier turns arrive as messages, the question last."""

    messages: Annotated[list[AnyMessage], add_messages] = Field(default_factory=list)
    question: str = ""
    collections: list[str] = Field(default_factory=list)
    language: Language = "ja"
    max_steps: int = 10
    steps: int = 0
    passages: list[Passage] = Field(default_factory=list)
    searches: Annotated[list[SearchRecord], operator.add] = Field(default_factory=list)
    listed_collections: bool = False
    thoughts: Annotated[list[Thought], operator.add] = Field(default_factory=list)
    draft: str | None = None
    final: str | None = None
    reflection_thought: str | None = None
    streamed: str = ""  # the answer text listeners were last shown as the Reflection wrote it
    cited: list[int] = Field(default_factory=list)
    status: Status = "running"
    reason: str | None = None
    unanswered_logged: bool = False
    error: str | None = None

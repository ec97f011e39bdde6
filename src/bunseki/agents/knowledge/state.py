"""The knowledge graph's state: messages, the passages found and the thought process; no large objects."""

from __future__ import annotations

import operator
from typing import Annotated, Any, Literal

from langchain_core.messages import AnyMessage
from langgraph.graph.message import add_messages
from pydantic import BaseModel, Field

from bunseki.brain.knowledge.contract import Passage, SearchRecord
from bunseki.domain import Language

Status = Literal["running", "answered", "unanswered", "error"]
ThoughtKind = Literal["thought", "tool_call", "observation", "draft", "reflection"]


class ThoughtStep(BaseModel):
    """One record of the thought process shown with an answer: a thought, a tool call and its
    arguments, an observation, the draft, or the Reflection. ``step`` is the loop step (from 1)."""

    step: int
    kind: ThoughtKind
    content: str = ""
    tool: str | None = None
    arguments: dict[str, Any] | None = None


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
    thoughts: Annotated[list[ThoughtStep], operator.add] = Field(default_factory=list)
    draft: str | None = None
    final: str | None = None
    reflection_thought: str | None = None
    streamed: str = ""  # the answer text listeners were last shown as the Reflection wrote it
    cited: list[int] = Field(default_factory=list)
    status: Status = "running"
    reason: str | None = None
    unanswered_logged: bool = False
    error: str | None = None

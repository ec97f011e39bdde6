"""Where the knowledge graph goes after ``agent``: a pure function of the state."""

from __future__ import annotations

from typing import Literal

from langchain_core.messages import AIMessage

from bunseki.agents.knowledge.state import KnowledgeState
from bunseki.brain.knowledge.contract import NO_ANSWER


def after_agent(state: KnowledgeState) -> Literal["tools", "reflect", "finish"]:
    """Tool calls run (within the step cap); a draft goes to Reflection; an abstention, an error or
    the cap ends the turn."""
    if state.status != "running":
        return "finish"
    last = state.messages[-1] if state.messages else None
    if isinstance(last, AIMessage) and last.tool_calls:
        return "tools" if state.steps < state.max_steps else "finish"
    if state.draft and not state.draft.startswith(NO_ANSWER):
        return "reflect"
    return "finish"

"""``build()``: the knowledge chat's graph — agent ⇄ tools (at most ``max_steps`` steps) → reflect → finish."""

from __future__ import annotations

from typing import Any

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph

from bunseki.agents.knowledge import nodes, routing
from bunseki.agents.knowledge.context import KnowledgeContext
from bunseki.agents.knowledge.state import KnowledgeState

MAX_STEPS = 10


def build(*, checkpointer: BaseCheckpointSaver[Any] | None = None) -> CompiledStateGraph[Any, Any, Any, Any]:
    """The compiled knowledge graph; pass a `KnowledgeContext` as ``context=`` on each invocation."""
    graph = StateGraph(KnowledgeState, context_schema=KnowledgeContext)
    graph.add_node("agent", nodes.agent)
    graph.add_node("tools", nodes.tools)
    graph.add_node("reflect", nodes.reflect)
    graph.add_node("finish", nodes.finish)
    graph.add_edge(START, "agent")
    graph.add_conditional_edges("agent", routing.after_agent)
    graph.add_edge("tools", "agent")
    graph.add_edge("reflect", "finish")
    graph.add_edge("finish", END)
    return graph.compile(checkpointer=checkpointer)


def recursion_limit(max_steps: int = MAX_STEPS) -> int:
    """Enough super-steps for ``max_steps`` agent/tools rounds, Reflection and finish (LangGraph's default is 10007)."""
    return 2 * max_steps + 4

"""``build()``: the analyst's graph — reason → (ask: end | act: code_exec or tool_exec → reason | finalize: report)."""

from __future__ import annotations

from typing import Any

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph

from bunseki.agents.analyst import nodes, routing
from bunseki.agents.analyst.context import AnalystContext
from bunseki.agents.analyst.state import AnalystState


def build(*, checkpointer: BaseCheckpointSaver[Any] | None = None) -> CompiledStateGraph[Any, Any, Any, Any]:
    """The compiled analyst graph; pass an `AnalystContext` as ``context=`` on each invocation."""
    graph = StateGraph(AnalystState, context_schema=AnalystContext)
    graph.add_node("reason", nodes.reason)
    graph.add_node("code_exec", nodes.code_exec)
    graph.add_node("tool_exec", nodes.tool_exec)
    graph.add_node("report", nodes.report)
    graph.add_edge(START, "reason")
    graph.add_conditional_edges("reason", routing.after_reason)
    graph.add_edge("code_exec", "reason")
    graph.add_edge("tool_exec", "reason")
    graph.add_edge("report", END)
    return graph.compile(checkpointer=checkpointer)


def recursion_limit(max_loops: int) -> int:
    """Enough super-steps for ``max_loops`` act cycles plus the report; LangGraph's default is 10007."""
    return 2 * max_loops + 4

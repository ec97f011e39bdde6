"""``build()``: the EDA graph — validate → plan ⇄ review → code ⇄ execute → findings ⇄ review → report."""

from __future__ import annotations

from typing import Any

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.graph import START, StateGraph
from langgraph.graph.state import CompiledStateGraph

from bunseki.agents.eda import nodes, routing
from bunseki.agents.eda.context import EdaContext
from bunseki.agents.eda.state import EdaState

RECURSION_LIMIT = 200  # plan rounds × steps × attempts stay far below this; it only stops a runaway loop


def build(*, checkpointer: BaseCheckpointSaver[Any] | None = None) -> CompiledStateGraph[Any, Any, Any, Any]:
    """The compiled EDA graph; pass an `EdaContext` as ``context=``. Reviews need a checkpointer."""
    graph = StateGraph(EdaState, context_schema=EdaContext)
    graph.add_node("validate_data", nodes.validate_data)
    graph.add_node("plan_analysis", nodes.plan_analysis)
    graph.add_node("ask_human_for_plan_review", nodes.ask_human_for_plan_review)
    graph.add_node("generate_code", nodes.generate_code)
    graph.add_node("execute_code", nodes.execute_code)
    graph.add_node("integrate_results", nodes.integrate_results)
    graph.add_node("ask_human_for_results_review", nodes.ask_human_for_results_review)
    graph.add_node("generate_report", nodes.generate_report)
    graph.add_node("handle_error", nodes.handle_error)
    graph.add_edge(START, "validate_data")
    graph.add_conditional_edges("validate_data", routing.after_validation)
    graph.add_conditional_edges("plan_analysis", routing.after_planning)
    graph.add_conditional_edges("ask_human_for_plan_review", routing.after_plan_review)
    graph.add_conditional_edges("generate_code", routing.after_code)
    graph.add_conditional_edges("execute_code", routing.after_execution)
    graph.add_edge("integrate_results", "ask_human_for_results_review")
    graph.add_conditional_edges("ask_human_for_results_review", routing.after_results_review)
    graph.add_conditional_edges("generate_report", routing.after_report)
    graph.add_edge("handle_error", "__end__")
    return graph.compile(checkpointer=checkpointer)

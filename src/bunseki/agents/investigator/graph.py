"""``build()``: initialize → per dataset (check → consistency → hypotheses ⇄ verifier → reporter) → summary."""

from __future__ import annotations

from typing import Any

from langgraph.graph import START, StateGraph
from langgraph.graph.state import CompiledStateGraph

from bunseki.agents.investigator import nodes, routing
from bunseki.agents.investigator.context import InvestigatorContext
from bunseki.agents.investigator.state import InvestigatorState

RECURSION_LIMIT = 500


def build() -> CompiledStateGraph[Any, Any, Any, Any]:
    graph = StateGraph(InvestigatorState, context_schema=InvestigatorContext)
    graph.add_node("initialize", nodes.initialize)
    graph.add_node("next_dataset", nodes.next_dataset)
    graph.add_node("data_checker", nodes.data_checker)
    graph.add_node("consistency_checker", nodes.consistency_checker)
    graph.add_node("hypothesis_generator", nodes.hypothesis_generator)
    graph.add_node("verifier", nodes.verifier)
    graph.add_node("reporter", nodes.reporter)
    graph.add_node("summarizer", nodes.summarizer)
    graph.add_edge(START, "initialize")
    graph.add_edge("initialize", "next_dataset")
    graph.add_conditional_edges("next_dataset", routing.after_next)
    graph.add_edge("data_checker", "consistency_checker")
    graph.add_conditional_edges("consistency_checker", routing.after_consistency)
    graph.add_edge("hypothesis_generator", "verifier")
    graph.add_conditional_edges("verifier", routing.after_verifier)
    graph.add_edge("reporter", "next_dataset")
    graph.add_edge("summarizer", "__end__")
    return graph.compile()

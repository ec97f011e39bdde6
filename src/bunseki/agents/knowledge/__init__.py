"""The knowledge chat: a ReAct loop over the knowledge base with two tools, then Reflection."""

from bunseki.agents.knowledge.context import KnowledgeContext, Searchable, UnansweredLog
from bunseki.agents.knowledge.graph import MAX_STEPS, build, recursion_limit
from bunseki.agents.knowledge.state import KnowledgeState, ThoughtStep

__all__ = [
    "MAX_STEPS",
    "KnowledgeContext",
    "KnowledgeState",
    "Searchable",
    "ThoughtStep",
    "UnansweredLog",
    "build",
    "recursion_limit",
]

"""The EDA pipeline: validate, plan, two human reviews, code per step in the sandbox, report."""

from bunseki.agents.eda.context import EdaContext
from bunseki.agents.eda.graph import RECURSION_LIMIT, build
from bunseki.agents.eda.review import Answer, parse
from bunseki.agents.eda.state import FORMER_HOMES, FORMER_NAMES, STATE_TYPES, EdaState

__all__ = [
    "FORMER_HOMES",
    "FORMER_NAMES",
    "RECURSION_LIMIT",
    "STATE_TYPES",
    "Answer",
    "EdaContext",
    "EdaState",
    "build",
    "parse",
]

"""The analyst: a ReAct graph of reason, code_exec and report over a sandboxed ``df``."""

from bunseki.agents.analyst.context import AnalystContext
from bunseki.agents.analyst.graph import build, recursion_limit
from bunseki.agents.analyst.state import AnalystState, ReasonStep

__all__ = ["AnalystContext", "AnalystState", "ReasonStep", "build", "recursion_limit"]

"""The EDA pipeline: validate, plan, two human reviews, code per step in the sandbox, report."""

from bunseki.agents.eda.context import EdaContext
from bunseki.agents.eda.graph import RECURSION_LIMIT, build
from bunseki.agents.eda.review import Answer, parse
from bunseki.agents.eda.state import EdaState, Status

__all__ = ["RECURSION_LIMIT", "Answer", "EdaContext", "EdaState", "Status", "build", "parse"]

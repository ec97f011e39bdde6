"""The time-series issue investigator's graph: check the data, check consistency, hypothesize, verify
in the sandbox, report; dataset by dataset."""

from bunseki.agents.investigator.context import InvestigatorContext
from bunseki.agents.investigator.graph import build
from bunseki.agents.investigator.state import InvestigatorState

__all__ = ["InvestigatorContext", "InvestigatorState", "build"]

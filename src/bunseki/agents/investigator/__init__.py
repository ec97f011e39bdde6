"""Seed 002's time-series issue investigator graph."""

from bunseki.agents.investigator.context import InvestigatorContext
from bunseki.agents.investigator.graph import build
from bunseki.agents.investigator.state import InvestigatorState

__all__ = ["InvestigatorContext", "InvestigatorState", "build"]

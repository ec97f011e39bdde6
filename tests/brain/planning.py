"""The offline analyst's plan for a question, or its question back, as the brain tests read them."""

from __future__ import annotations

from bunseki.brain.analyst.offline.parse import plan_question
from bunseki.brain.analyst.offline.plan import Clarification, Plan
from bunseki.data.summary import DataFrameInfo


def plan(question: str, info: DataFrameInfo, language: str = "ja") -> Plan:
    """The plan for ``question``; fails the test when the analyst asks back instead."""
    planned = plan_question(question, info, language)  # type: ignore[arg-type]
    assert isinstance(planned, Plan), planned
    return planned


def asked(question: str, info: DataFrameInfo, language: str = "ja") -> str:
    """The question asked back; fails the test when the analyst plans an answer instead."""
    planned = plan_question(question, info, language)  # type: ignore[arg-type]
    assert isinstance(planned, Clarification), planned
    return planned.question

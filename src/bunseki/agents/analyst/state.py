"""The analyst graph's state: JSON-serialisable only (DataFrames stay in the sandbox)."""

from __future__ import annotations

import operator
from typing import Annotated, Any, Literal

from langchain_core.messages import AnyMessage
from langgraph.graph.message import add_messages
from pydantic import BaseModel, Field

from bunseki.brain.analyst.contract import ExecutionRecord, NextAction
from bunseki.domain import Language, ReportOutput

Status = Literal["running", "finalized", "asked", "limit_reached", "error"]


class ReasonStep(BaseModel):
    """One decision of the ``reason`` node, kept for the thought-process display."""

    next_action: NextAction
    rationale: str
    instruction: str | None = None
    question: str | None = None
    assumption: str | None = None


class AnalystState(BaseModel):
    """The analyst's state: messages, the loop count, what ran and the report; the DataFrame itself
    stays in the sandbox that holds it."""

    messages: Annotated[list[AnyMessage], add_messages] = Field(default_factory=list)
    language: Language = "ja"
    next_action: NextAction | None = None
    loop_count: int = 0
    instruction: str | None = None
    tool: str | None = None
    tool_arguments: dict[str, Any] | None = None
    plan: dict[str, Any] | None = None  # the brain's reading of the turn (JSON), read once, used by code and report
    executions: Annotated[list[ExecutionRecord], operator.add] = Field(default_factory=list)
    assumptions: Annotated[list[str], operator.add] = Field(default_factory=list)
    steps: Annotated[list[ReasonStep], operator.add] = Field(default_factory=list)
    final_report: ReportOutput | None = None
    status: Status = "running"
    error: str | None = None

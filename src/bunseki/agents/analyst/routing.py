"""Where the graph goes after ``reason``: pure functions of the state."""

from __future__ import annotations

from typing import Literal

from bunseki.agents.analyst.state import AnalystState


def after_reason(state: AnalystState) -> Literal["code_exec", "tool_exec", "report", "__end__"]:
    """The router after ``reason``: ask ends the turn, act runs code (or a data tool), finalize (or the cap) reports."""
    if state.status in ("error", "asked"):
        return "__end__"
    if state.status == "limit_reached" or state.next_action == "finalize":
        return "report"
    if state.next_action == "act":
        return "tool_exec" if state.tool else "code_exec"
    return "__end__"

"""Where the EDA graph goes after each node: pure functions of the state."""

from __future__ import annotations

from typing import Literal

from bunseki.agents.eda.state import EdaState


def after_validation(state: EdaState) -> Literal["plan_analysis", "handle_error"]:
    return "handle_error" if state.agent_outcome == "failed" else "plan_analysis"


def after_planning(
    state: EdaState,
) -> Literal["ask_human_for_plan_review", "generate_code", "ask_human_for_results_review", "handle_error"]:
    """A first or revised plan goes to its review; feedback from the results review runs what changed."""
    if state.agent_outcome == "failed":
        return "handle_error"
    if state.review != "results" or state.agent_outcome == "planned":
        return "ask_human_for_plan_review"
    if state.agent_outcome == "unclear":
        return "ask_human_for_results_review"  # the planner's note says what it could not apply
    return "generate_code"


def after_plan_review(
    state: EdaState,
) -> Literal["generate_code", "plan_analysis", "ask_human_for_plan_review", "__end__"]:
    match state.agent_outcome:
        case "approve":
            return "generate_code"
        case "feedback":
            return "plan_analysis"
        case "stop":
            return "__end__"
        case _:
            return "ask_human_for_plan_review"


def after_code(state: EdaState) -> Literal["execute_code", "integrate_results", "handle_error"]:
    if state.agent_outcome == "failed":
        return "handle_error"
    return "integrate_results" if state.current_step is None else "execute_code"


def after_execution(state: EdaState) -> Literal["generate_code", "integrate_results", "handle_error"]:
    """Retry a failed step or go on to the next; with every step run, on to the findings."""
    if state.agent_outcome == "failed" and state.step_error is None:
        return "handle_error"  # the sandbox itself failed, not the step's code
    return "generate_code" if state.pending_steps() else "integrate_results"


def after_results_review(
    state: EdaState,
) -> Literal["generate_report", "plan_analysis", "ask_human_for_results_review", "__end__"]:
    match state.agent_outcome:
        case "approve":
            return "generate_report"
        case "feedback":
            return "plan_analysis"
        case "stop":
            return "__end__"
        case _:
            return "ask_human_for_results_review"


def after_report(state: EdaState) -> Literal["handle_error", "__end__"]:
    return "handle_error" if state.agent_outcome == "failed" else "__end__"

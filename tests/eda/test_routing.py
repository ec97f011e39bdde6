"""Where the EDA graph goes after each node, for every review answer and error path."""

from __future__ import annotations

from typing import Any

import pytest

from bunseki.agents.eda import EdaState, routing
from bunseki.domain import PlanStep, StepOutcome

STEP = PlanStep(id=1, title="分布", kind="distribution", columns=["x"], rationale="-")
DONE = StepOutcome(step_id=1, code="", success=True)


def state(**fields: Any) -> EdaState:
    return EdaState(raw_data_path="data/x.csv", **fields)


@pytest.mark.parametrize(
    ("outcome", "target"),
    [
        ("approve", "generate_code"),
        ("feedback", "plan_analysis"),
        ("stop", "__end__"),
        ("unclear", "ask_human_for_plan_review"),
    ],
)
def test_after_the_plan_review(outcome: str, target: str) -> None:
    assert routing.after_plan_review(state(agent_outcome=outcome)) == target


@pytest.mark.parametrize(
    ("outcome", "target"),
    [
        ("approve", "generate_report"),
        ("feedback", "plan_analysis"),
        ("stop", "__end__"),
        ("unclear", "ask_human_for_results_review"),
    ],
)
def test_after_the_results_review(outcome: str, target: str) -> None:
    assert routing.after_results_review(state(agent_outcome=outcome)) == target


@pytest.mark.parametrize(
    ("review", "outcome", "target"),
    [
        (None, "planned", "ask_human_for_plan_review"),
        ("plan", "replanned", "ask_human_for_plan_review"),
        ("plan", "unclear", "ask_human_for_plan_review"),
        ("results", "replanned", "generate_code"),
        ("results", "recode", "generate_code"),
        ("results", "unclear", "ask_human_for_results_review"),
        ("plan", "failed", "handle_error"),
        ("results", "failed", "handle_error"),
    ],
)
def test_after_planning(review: str | None, outcome: str, target: str) -> None:
    assert routing.after_planning(state(review=review, agent_outcome=outcome)) == target


def test_validation_failure_goes_to_handle_error() -> None:
    assert routing.after_validation(state(agent_outcome="failed")) == "handle_error"
    assert routing.after_validation(state(agent_outcome="executed")) == "plan_analysis"


def test_code_generation_runs_the_step_finishes_when_none_is_left_and_stops_on_model_errors() -> None:
    assert routing.after_code(state(current_step=1, agent_outcome="planned")) == "execute_code"
    assert routing.after_code(state(current_step=None, agent_outcome="executed")) == "integrate_results"
    assert routing.after_code(state(current_step=1, agent_outcome="failed")) == "handle_error"


def test_execution_retries_goes_on_or_integrates() -> None:
    retry = state(analysis_plan=[STEP], current_step=1, step_error="ValueError", agent_outcome="failed")
    assert routing.after_execution(retry) == "generate_code"
    finished = state(analysis_plan=[STEP], outcomes={"1": DONE}, agent_outcome="executed")
    assert routing.after_execution(finished) == "integrate_results"
    following = state(analysis_plan=[STEP, STEP.model_copy(update={"id": 2})], outcomes={"1": DONE})
    assert routing.after_execution(following.model_copy(update={"agent_outcome": "executed"})) == "generate_code"
    broken_sandbox = state(analysis_plan=[STEP], current_step=1, agent_outcome="failed")
    assert routing.after_execution(broken_sandbox) == "handle_error"


def test_a_report_that_could_not_be_written_goes_to_handle_error() -> None:
    assert routing.after_report(state(agent_outcome="failed")) == "handle_error"
    assert routing.after_report(state(agent_outcome="executed")) == "__end__"

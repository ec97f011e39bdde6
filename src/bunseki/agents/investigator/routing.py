"""Pure routing functions of the investigator graph."""

from __future__ import annotations

from typing import Literal

from bunseki.agents.investigator.state import MAX_ITERATIONS, InvestigatorState


def after_next(state: InvestigatorState) -> Literal["data_checker", "summarizer"]:
    return "data_checker" if state.current_ds else "summarizer"


def after_consistency(state: InvestigatorState) -> Literal["hypothesis_generator", "reporter"]:
    return "hypothesis_generator" if state.current_ds.get("status") == "inconsistent" else "reporter"


def after_verifier(state: InvestigatorState) -> Literal["verifier", "reporter"]:
    pending = any(h.pending for h in state.hypotheses)
    foreign = state.current_ds.get("baseline_matches_reference") and not state.current_ds.get(
        "baseline_reproduces_output"
    )
    cannot_run = bool(state.current_ds.get("run_error"))
    if state.success or foreign or cannot_run or state.iteration >= MAX_ITERATIONS or not pending:
        return "reporter"
    return "verifier"

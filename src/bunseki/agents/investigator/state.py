"""The investigator's state: references and text, never frames."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from bunseki.brain.investigator.contract import Hypothesis

MAX_ITERATIONS = 10


class InvestigatorState(BaseModel):
    inputs: dict[str, Any] = Field(default_factory=dict, description="specs, codes, env files: workspace paths.")
    datasets: list[dict[str, Any]] = Field(default_factory=list, description="name, output, core, expected.")
    current_ds: dict[str, Any] = Field(default_factory=dict, description="The dataset being investigated.")
    results: list[dict[str, Any]] = Field(default_factory=list, description="One finished record per dataset.")
    success: bool = False
    iteration: int = 0
    index: dict[str, Any] = Field(default_factory=dict, description="Content hash and chunk count of the index.")
    hypotheses: list[Hypothesis] = Field(default_factory=list)
    summary: str = ""
    report_path: str | None = None

"""The EDA pipeline's brain: plan, write each step's code, read its findings, write the report.

The plan's steps, their outcomes and findings are named here too: checkpoints of EDA runs paused
before they moved to `bunseki.domain` name this module (`bunseki.agents.eda.FORMER_HOMES`).
"""

from bunseki.domain import Finding, PlanStep, StepOutcome

__all__ = ["Finding", "PlanStep", "StepOutcome"]

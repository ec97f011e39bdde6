"""A small, deterministic EDA brain for the graph and service tests (the real ones have their own)."""

from __future__ import annotations

import re

from bunseki.brain.eda.contract import EdaView, PlanRevision, StepCode
from bunseki.domain import Finding, PlanStep, ReportOutput, ReportSection, StepOutcome


class ScriptedEdaBrain:
    """One step per numeric column; understands "drop step N" and "add X"; ``failures`` make code fail first.

    ``failures``: step ids whose first attempt raises (the retry, given the error, succeeds) —
    or always raises when the id is in ``broken``.
    """

    def __init__(self, *, failures: set[int] | None = None, broken: set[int] | None = None) -> None:
        self.failures = failures or set()
        self.broken = broken or set()
        self.calls: list[str] = []

    @property
    def name(self) -> str:
        return "scripted"

    def plan(self, view: EdaView) -> PlanRevision:
        self.calls.append(f"plan:{view.feedback or ''}")
        if view.feedback is None:
            numeric = [column.name for column in view.profile.columns if column.kind == "numeric"]
            steps = [
                PlanStep(id=n, title=f"{name}の分布", kind="distribution", columns=[name], rationale="数値列")
                for n, name in enumerate(numeric, start=1)
            ]
            return PlanRevision(plan=steps)
        if match := re.search(r"drop step (\d+)", view.feedback):
            kept = [step for step in view.plan if step.id != int(match.group(1))]
            return PlanRevision(plan=kept, note=f"dropped step {match.group(1)}")
        if match := re.search(r"add (\S+)", view.feedback):
            column = match.group(1)
            if column not in {c.name for c in view.profile.columns}:
                return PlanRevision(plan=view.plan, understood=False, note=f"no column {column}")
            step = PlanStep(id=99, title=f"{column}の件数", kind="categorical", columns=[column], rationale="依頼")
            return PlanRevision(plan=[*view.plan, step], new_analyses=view.review == "results")
        if "redo" in view.feedback:
            return PlanRevision(plan=view.plan, note="recoding")
        return PlanRevision(plan=view.plan, understood=False, note="I did not understand the feedback.")

    def write_step_code(self, view: EdaView, step: PlanStep, error: str | None = None) -> StepCode:
        self.calls.append(f"code:{step.id}:{'retry' if error else 'first'}")
        column = step.columns[0]
        if step.id in self.broken or (step.id in self.failures and error is None):
            return StepCode(code=f"raise ValueError('step {step.id} failed')")
        if step.kind == "categorical":
            return StepCode(code=f"print('counts', df[{column!r}].value_counts().to_dict())")
        chart = f"eda_{step.id}.png"
        code = (
            "import matplotlib\nmatplotlib.use('Agg')\nimport matplotlib.pyplot as plt\n"
            f"print('mean', round(float(df[{column!r}].mean()), 3))\n"
            f"df[{column!r}].plot.hist()\nplt.savefig({chart!r})\nplt.close('all')"
        )
        return StepCode(code=code, charts=[chart])

    def find(self, view: EdaView, step: PlanStep, outcome: StepOutcome) -> Finding:
        self.calls.append(f"find:{step.id}")
        text = outcome.stdout.strip() if outcome.success else f"failed: {outcome.error}"
        return Finding(step_id=step.id, title=step.title, text=text, success=outcome.success)

    def write_report(self, view: EdaView) -> ReportOutput:
        self.calls.append("report")
        sections = [ReportSection(section_type="text", content=f"{f.title}: {f.text}") for f in view.findings]
        return ReportOutput(title="EDA", conclusion=" / ".join(f.text for f in view.findings) or "-", sections=sections)

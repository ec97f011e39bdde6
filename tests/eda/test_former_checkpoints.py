"""A run paused while its state's types lived in their former modules (the plan's steps, outcomes and
findings in the EDA brain's module, the profile in bunseki.data.profile.models) resumes after they
moved to bunseki.domain: its checkpoints name the former modules, and they are read as they were written."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import pytest

from bunseki.agents.eda import FORMER_HOMES, FORMER_NAMES, STATE_TYPES
from bunseki.domain import Finding, PlanStep, StepOutcome, TableProfile
from bunseki.service.eda import EdaService
from bunseki.settings import Settings
from bunseki.store.checkpoints import open_checkpointer
from tests.fakes.eda import ScriptedEdaBrain


def channel_values(url: str, run_id: str, formerly: Iterable[tuple[str, str]]) -> dict[str, Any]:
    """The run's latest graph state as a checkpointer that knows ``formerly`` reads it."""
    with open_checkpointer(url, types=STATE_TYPES, formerly=formerly) as saver:
        found = saver.get_tuple({"configurable": {"thread_id": run_id, "checkpoint_ns": ""}})
    assert found is not None
    values: dict[str, Any] = found.checkpoint["channel_values"]
    return values


def test_a_run_paused_before_the_move_reads_and_resumes(
    make_service: Callable[[ScriptedEdaBrain], EdaService],
    brain: ScriptedEdaBrain,
    eda_settings: Settings,
    sales_file: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with monkeypatch.context() as before:  # the classes where the checkpoints of earlier runs say they are
        for module, kinds in FORMER_HOMES.items():
            for kind in kinds:
                before.setattr(kind, "__module__", module)
        paused = make_service(brain)
        run = paused.start(sales_file)
        paused.resume(run.run_id, {"action": "approve"})  # outcomes and findings are checkpointed too
        paused.close()

    url = eda_settings.database
    unknown = channel_values(url, run.run_id, formerly=())  # the checkpoints name the former modules …
    assert isinstance(unknown["analysis_plan"][0], dict) and isinstance(unknown["profile"], dict)
    restored = channel_values(url, run.run_id, formerly=FORMER_NAMES)  # … where the classes are found
    assert all(isinstance(step, PlanStep) for step in restored["analysis_plan"])
    assert isinstance(restored["profile"], TableProfile)
    assert restored["outcomes"] and all(isinstance(outcome, StepOutcome) for outcome in restored["outcomes"].values())
    assert restored["findings"] and all(isinstance(finding, Finding) for finding in restored["findings"])

    resumed = make_service(brain)
    waiting = resumed.get(run.run_id)
    assert waiting.status == "awaiting_results_review" and waiting.review is not None
    assert [step.id for step in waiting.plan] == [step.id for step in restored["analysis_plan"]]
    done = resumed.resume(run.run_id, {"action": "approve"})
    assert done.status == "completed" and done.report_path is not None and Path(done.report_path).is_file()
    assert [finding.text for finding in done.findings] == ["mean 105.833", "mean 2.5"]


def test_every_former_home_still_gives_its_class() -> None:
    for module, kinds in FORMER_HOMES.items():
        imported = importlib.import_module(module)
        for kind in kinds:
            assert getattr(imported, kind.__name__) is kind, f"{module}.{kind.__name__}"

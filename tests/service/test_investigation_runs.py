"""Investigations in the background: a crash, a stopped server and a queue cut short all end as errors that say so."""

from __future__ import annotations

import io
import json
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from bunseki.errors import Conflict
from bunseki.service.investigation_runs import INTERRUPTED, InvestigationRuns
from bunseki.service.investigations import InvestigationService, InvestigationView
from bunseki.settings import Settings
from tests.api.test_investigations_api import sample_case_zip


class CrashingInvestigator(InvestigationService):
    """Fails as a bug in a node would, after the first agent started."""

    def run(self, manifest: Path, **kwargs: Any) -> InvestigationView:
        kwargs["on_event"]({"event": "node_started", "node": "initialize"})
        raise RuntimeError("a node broke")


class GatedInvestigator(InvestigationService):
    """Holds each investigation until the test opens the gate."""

    def __init__(self, settings: Settings) -> None:
        super().__init__(settings)
        self.started = threading.Event()
        self.gate = threading.Event()

    def run(self, manifest: Path, **kwargs: Any) -> InvestigationView:
        self.started.set()
        self.gate.wait(timeout=60)
        return InvestigationView("completed", "gated")


def _start(runs: InvestigationRuns) -> str:
    return runs.start_from_upload("case.zip", io.BytesIO(sample_case_zip()), model="offline").investigation_id


def test_a_crash_ends_the_run_as_an_error_with_a_result_that_says_why(settings: Settings) -> None:
    with InvestigationRuns(settings, investigator=CrashingInvestigator(settings)) as runs:
        run_id = _start(runs)
        view = runs.wait(run_id)
        assert view.status == "error" and view.error == "RuntimeError: a node broke"
        assert view.stage == "initialize"
        result = runs.result(run_id)
        assert result["status"] == "error" and result["case"] == "hysteresis-detector" and result["datasets"] == []


def test_a_run_whose_server_stopped_is_reported_as_interrupted(settings: Settings) -> None:
    with InvestigationRuns(settings, investigator=CrashingInvestigator(settings)) as runs:
        run_id = _start(runs)
        runs.wait(run_id)
        record_path = runs.root / run_id / "record.json"
        record = json.loads(record_path.read_text(encoding="utf-8"))
        gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
        record.update(status="running", pid=int(gone.stdout))  # as a server that died mid-run left it
        record_path.write_text(json.dumps(record), encoding="utf-8")
    with InvestigationRuns(settings) as later:
        view = later.get(run_id)
    assert view.status == "error" and view.error == INTERRUPTED


def test_closing_marks_the_queued_runs_and_lets_the_running_one_finish(settings: Settings) -> None:
    investigator = GatedInvestigator(settings)
    runs = InvestigationRuns(settings, investigator=investigator)
    first = _start(runs)
    assert investigator.started.wait(timeout=30)
    second = _start(runs)
    assert runs.get(second).status == "queued"
    with pytest.raises(Conflict, match="queued"):
        runs.delete(second)
    with pytest.raises(Conflict, match="running"):
        runs.result(first)
    closing = threading.Thread(target=runs.close)
    closing.start()
    for _ in range(300):  # until close has cancelled the queued run (a bound, not a measurement)
        if runs.get(second).status == "error":
            break
        closing.join(timeout=0.1)
    investigator.gate.set()
    closing.join(timeout=60)
    assert runs.get(first).status == "completed"
    assert runs.get(second).status == "error" and runs.get(second).error == INTERRUPTED


def test_each_user_lists_only_their_own(settings: Settings) -> None:
    with InvestigationRuns(settings, investigator=CrashingInvestigator(settings)) as runs:
        mine = runs.start_from_upload("a.zip", io.BytesIO(sample_case_zip()), user_id="u1").investigation_id
        runs.start_from_upload("b.zip", io.BytesIO(sample_case_zip()), user_id="u2")
        assert [item.investigation_id for item in runs.list(user_id="u1")] == [mine]
        assert len(runs.list()) == 2

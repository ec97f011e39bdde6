"""Crash safety: SIGKILL in the middle of a turn loses nothing that was committed before it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd

from bunseki.samples import SALES_CSV
from bunseki.settings import Settings
from tests.conftest import ServiceFactory
from tests.support import processes_in

# The process that gets killed: one committed turn that narrows the data, then a turn whose
# cell hangs. It prints the session id, then CELL once the hanging cell is running.
VICTIM = """
import sys
from pathlib import Path

from bunseki.brain.analyst.contract import CodeGenOutput, ReasonOutput
from bunseki.brain.analyst.offline import OfflineAnalystBrain
from bunseki.service import AnalysisService


class Hanging(OfflineAnalystBrain):
    def decide(self, view):
        if "止まる" in view.question:
            return ReasonOutput(next_action="act", instruction="長い計算", rationale="test")
        return super().decide(view)

    def write_code(self, view):
        if "止まる" in view.question:
            return CodeGenOutput(code="import time\\nprint(len(df), flush=True)\\ntime.sleep(600)")
        return super().write_code(view)


def progress(event):
    if event.get("event") == "code":
        print("CELL", flush=True)


service = AnalysisService(brains=lambda spec: Hanging())
session = service.create_session(Path(sys.argv[1]))
print(session.id, flush=True)
service.run_turn(session.id, "地域は関東だけにして")
service.run_turn(session.id, "止まるまで計算して", on_event=progress)
"""


def test_sigkill_mid_turn_keeps_what_was_committed(
    service_settings: Settings, open_service: ServiceFactory, sales: pd.DataFrame
) -> None:
    environment = {
        **os.environ,
        "BUNSEKI_WORKSPACE_ROOT": str(service_settings.workspace_root),
        "BUNSEKI_DATABASE_URL": service_settings.database,
    }
    victim = subprocess.Popen(
        [sys.executable, "-c", VICTIM, str(SALES_CSV)], stdout=subprocess.PIPE, text=True, env=environment
    )
    assert victim.stdout is not None
    try:
        session_id = victim.stdout.readline().strip()
        assert victim.stdout.readline().strip() == "CELL", "the hanging cell never started"
        time.sleep(0.3)  # let the cell get into its sleep
    finally:
        victim.send_signal(signal.SIGKILL)
        victim.wait(10)
        victim.stdout.close()

    service = open_service()
    kanto = sales[sales["地域"] == "関東"]
    record = service.find_session(session_id)
    workspace = Path(record.workspace)
    left = processes_in(workspace)
    assert left == [], f"sandbox processes outlived their session's process: {left}"

    messages = service.messages(session_id)  # opening the session marks the orphaned turn
    turns = service.store.list_turns(session_id)
    assert [(t.question, t.status) for t in turns] == [
        ("地域は関東だけにして", "finalized"),
        ("止まるまで計算して", "interrupted"),
    ]
    assert [(m.role, m.turn_id) for m in messages] == [
        ("user", turns[0].id),
        ("assistant", turns[0].id),
        ("user", turns[1].id),
        ("assistant", turns[1].id),
    ]
    assert "関東" in messages[1].content
    assert "中断" in messages[3].content
    assert [s.step_type for s in service.steps(session_id)] == ["filter_data"]
    assert service.data_state(session_id)["rows"] == len(kanto)

    result = service.run_turn(session_id, "売上金額の合計は？")  # the session works on the committed data
    assert result.status == "finalized"
    assert f"{kanto['売上金額'].sum():,}" in (result.answer or "")
    assert service.store.list_turns(session_id)[-1].status == "finalized"

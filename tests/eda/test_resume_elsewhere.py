"""A run paused at a review is resumed by another process, as after a restart, on SQLite and PostgreSQL."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from bunseki.service.eda import EdaService
from bunseki.settings import Settings

REPOSITORY = Path(__file__).resolve().parents[2]
RESUME = """
import json, sys
from bunseki.service.eda import EdaService
from tests.fakes.eda import ScriptedEdaBrain
with EdaService(brains=lambda spec: ScriptedEdaBrain()) as service:
    run = service.resume(sys.argv[1], {"action": sys.argv[2]})
    print(json.dumps({"status": run.status, "findings": [f.text for f in run.findings]}, ensure_ascii=False))
"""


def _resume_elsewhere(settings: Settings, run_id: str, action: str) -> dict[str, object]:
    environment = os.environ | {
        "BUNSEKI_WORKSPACE_ROOT": str(settings.workspace_root),
        "BUNSEKI_DATABASE_URL": settings.database,
        "PYTHONPATH": os.pathsep.join([str(REPOSITORY), str(REPOSITORY / "src")]),
    }
    done = subprocess.run(
        [sys.executable, "-c", RESUME, run_id, action],
        env=environment,
        cwd=REPOSITORY,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def test_a_paused_run_resumes_in_a_new_process(service: EdaService, eda_settings: Settings, sales_file: Path) -> None:
    run = service.start(sales_file)
    service.close()  # as if this process had ended
    first = _resume_elsewhere(eda_settings, run.run_id, "approve")
    assert first == {"status": "awaiting_results_review", "findings": ["mean 105.833", "mean 2.5"]}
    second = _resume_elsewhere(eda_settings, run.run_id, "approve")
    assert second["status"] == "completed"
    with EdaService(eda_settings) as again:
        finished = again.get(run.run_id)
    assert finished.status == "completed" and finished.report_path is not None
    assert Path(finished.report_path).is_file()

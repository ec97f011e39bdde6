"""``bunseki run-code`` and ``bunseki doctor`` as a person or a script calls them."""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path

import pandas as pd
import pytest

from bunseki.samples import SALES_CSV
from tests import commandline
from tests.support import available_tiers

DEMO_CELL = Path(__file__).with_name("demo_cell.py")  # a cell as a person writes one: df and plt predefined

TABLE = "地域,売上,日付\n関東,1200,2024/01/05\n近畿,800,2024/01/06\n九州,600,2024/02/01\n"


def bunseki(*args: str | Path, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return commandline.bunseki(*args, timeout=timeout)


@pytest.fixture
def cell(tmp_path: Path) -> Path:
    path = tmp_path / "cell.py"
    path.write_text("print(df['売上'].sum())\nplt.bar(df['地域'], df['売上'])\nplt.title('地域別')\n")
    return path


@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "cp932", "shift_jis", "euc_jp"])
def test_json_result_with_data_in_each_encoding(
    cell: Path, tmp_path: Path, workspace_root: Path, encoding: str
) -> None:
    data = tmp_path / "売上.csv"
    data.write_bytes(TABLE.encode(encoding))
    workspace = workspace_root / "ws"
    done = bunseki("run-code", cell, "--workspace", workspace, "--data", data, "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert {"success", "stdout", "stderr", "error", "artifacts", "duration_s"} <= set(result)
    assert result["success"] is True
    assert result["stdout"] == "2600\n"
    assert result["error"] is None
    [chart] = result["artifacts"]
    assert Path(chart).is_file() and Path(chart).is_relative_to(workspace.resolve())
    assert (workspace / "data" / "売上.csv").read_bytes() == data.read_bytes()


def test_dates_are_parsed_for_the_cell(tmp_path: Path, workspace_root: Path) -> None:
    data = tmp_path / "売上.csv"
    data.write_text(TABLE, encoding="cp932")
    code = tmp_path / "dates.py"
    code.write_text("print(df['日付'].dt.month.tolist())")
    done = bunseki("run-code", code, "--workspace", workspace_root / "ws", "--data", data, "--json")
    assert json.loads(done.stdout)["stdout"] == "[1, 1, 2]\n"


def test_failing_cell_exits_1_with_the_error(tmp_path: Path, workspace_root: Path) -> None:
    code = tmp_path / "bad.py"
    code.write_text("x = 1\n1 / 0\n")
    done = bunseki("run-code", code, "--workspace", workspace_root / "ws", "--json")
    assert done.returncode == 1
    result = json.loads(done.stdout)
    assert result["success"] is False
    assert result["error"].rstrip().endswith("ZeroDivisionError: division by zero")
    assert result["error_type"] == "ZeroDivisionError"


def test_timeout_always_returns(tmp_path: Path, workspace_root: Path) -> None:
    code = tmp_path / "slow.py"
    code.write_text("import time\ntime.sleep(600)\n")
    began = time.monotonic()
    done = bunseki("run-code", code, "--workspace", workspace_root / "ws", "--timeout", "1", "--json")
    assert time.monotonic() - began < 30
    assert done.returncode == 1
    result = json.loads(done.stdout)
    assert result["limit"] == "wall_time"
    assert "1 s time limit" in result["error"]


def test_escaped_background_process_does_not_hold_the_command(tmp_path: Path, workspace_root: Path) -> None:
    code = tmp_path / "daemon.py"
    code.write_text(
        "import random\nos = random._os\n"
        "if os.fork() == 0:\n    os.setsid()\n    os.execvp('sleep', ['sleep', '600'])\n"
    )
    began = time.monotonic()
    done = bunseki("run-code", code, "--workspace", workspace_root / "ws", "--json")
    assert time.monotonic() - began < 30
    assert done.returncode == 0


def test_text_output_names_the_artifacts(cell: Path, tmp_path: Path, workspace_root: Path) -> None:
    data = tmp_path / "売上.csv"
    data.write_text(TABLE, encoding="utf-8")
    done = bunseki("run-code", cell, "--workspace", workspace_root / "ws", "--data", data)
    assert done.returncode == 0
    assert "succeeded" in done.stdout
    assert "artifact:" in done.stdout and ".png" in done.stdout


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["run-code", "missing.py", "--workspace", "ws"], "does not exist"),
        (["run-code", "{cell}"], "--workspace"),
        (["run-code", "{cell}", "--workspace", "ws", "--timeout", "soon"], "--timeout"),
        (["run-code", "{cell}", "--workspace", "ws", "--timeout", "0"], "--timeout"),
        (["run-code", "{cell}", "--workspace", "ws", "--data", "{empty}"], "empty"),
        (["run-code", "{cell}", "--workspace", "ws", "--data", "{binary}"], "PDF"),
    ],
)
def test_usage_errors_exit_2(args: list[str], fragment: str, cell: Path, tmp_path: Path, workspace_root: Path) -> None:
    empty = tmp_path / "empty.csv"
    empty.write_bytes(b"")
    binary = tmp_path / "report.csv"
    binary.write_bytes(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n")
    arguments = [arg.format(cell=cell, empty=empty, binary=binary) for arg in args]
    arguments = [str(workspace_root / arg) if arg == "ws" else arg for arg in arguments]
    done = bunseki(*arguments)
    assert done.returncode == 2, done.stdout + done.stderr
    assert fragment in done.stderr


def test_the_demo_cell_on_the_bundled_sample(workspace_root: Path) -> None:
    workspace = workspace_root / "demo"
    done = bunseki("run-code", DEMO_CELL, "--workspace", workspace, "--data", SALES_CSV, "--json")
    assert done.returncode == 0, done.stdout + done.stderr
    result = json.loads(done.stdout)
    sales = pd.read_csv(SALES_CSV, encoding="cp932")
    top_region = sales.groupby("地域")["売上金額"].sum().idxmax()
    top_total = sales.groupby("地域")["売上金額"].sum().max()
    ranking = [line.split() for line in result["stdout"].splitlines() if line.endswith("0")]
    assert ranking[0] == [top_region, f"{top_total:,}"]  # regions listed by total, largest first
    assert "Glyph" not in result["stderr"]
    assert [Path(path).name for path in result["artifacts"]] == ["月別売上推移.png"]


def test_doctor_reports_the_tier() -> None:
    done = bunseki("doctor", "--json")
    facts = json.loads(done.stdout)
    assert facts["isolation"]["tier"] in ("bwrap", "landlock")
    assert done.returncode == 0
    assert facts["limits"]["timeout_s"] == 180
    assert facts["warm_pool"]["error"] is None
    assert 0 < facts["warm_pool"]["worker_pss_mb"] <= facts["warm_pool"]["worker_rss_mb"]
    backend = facts["sandbox_backend"]
    assert (backend["backend"], backend["ok"], backend["sessions"], backend["error"]) == ("local", True, 0, None)
    text = bunseki("doctor")
    assert "Sandbox isolation:" in text.stdout
    assert "why:" in text.stdout
    assert "Sandbox backend: local" in text.stdout


def test_doctor_fails_on_a_backend_that_cannot_be_used(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BUNSEKI_SANDBOX_BACKEND", "ray")  # and no BUNSEKI_RAY_ADDRESS
    done = bunseki("doctor", "--json")
    backend = json.loads(done.stdout)["sandbox_backend"]
    assert (backend["backend"], backend["ok"]) == ("ray", False)
    assert "BUNSEKI_RAY_ADDRESS" in backend["error"] or "bunseki[ray]" in backend["error"]
    assert done.returncode == 1


@pytest.mark.skipif(os.geteuid() != 0, reason="only root hands the workspace to another user")
@pytest.mark.parametrize("tier", available_tiers())
def test_a_project_in_a_private_home_runs_with_the_default_workspace(tier: str, tmp_path: Path) -> None:
    """As root in a project under a 0700 directory (like /root), with ./workspace by default."""
    project = tmp_path / "home" / "project"
    project.mkdir(parents=True)
    project.parent.chmod(0o700)
    (project / "tips.csv").write_text("total_bill,tip\n16.99,1.01\n10.34,1.66\n21.01,3.5\n", encoding="utf-8")
    environment = {**os.environ, "BUNSEKI_SANDBOX_ISOLATION": tier}
    done = commandline.bunseki(
        "analyze", "tips.csv", "What is the average tip?", "--format", "json", timeout=120, cwd=project, env=environment
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["status"] == "finalized", result
    assert "2.06" in result["answer"]
    assert Path(result["workspace_dir"]).parent == project / "workspace"
    doctor = commandline.bunseki("doctor", "--json", cwd=project, env=environment)
    staging = json.loads(doctor.stdout)["workspace_staging"]
    if tier == "landlock":  # no mount namespace: doctor says where the sessions really run, and why
        assert "cannot reach" in staging and "/sessions" in staging
    else:
        assert staging is None

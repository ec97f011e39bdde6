"""``bunseki eda``: a run that stops at its first review without a terminal, is resumed by later
processes, approves itself with --yes, and is listed; the JSON contract; usage errors."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import nbformat
import pandas as pd
import pytest
from nbclient import NotebookClient

import bunseki as package
from bunseki.samples import SALES_CSV
from tests import commandline

CONTRACT = {
    "status",
    "run_id",
    "plan",
    "findings",
    "profile",
    "report_path",
    "report_markdown",
    "artifacts",
    "executions",
    "error",
}

SOURCE = str(Path(package.__file__).resolve().parents[1])


def bunseki(*args: str | Path, database_url: str | None = None) -> subprocess.CompletedProcess[str]:
    environment = dict(os.environ)
    if database_url is not None:
        environment["BUNSEKI_DATABASE_URL"] = database_url
    return commandline.bunseki(*args, timeout=600, env=environment)


def as_json(done: subprocess.CompletedProcess[str]) -> dict[str, object]:
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = json.loads(done.stdout)
    return result


def test_without_a_terminal_a_run_waits_at_the_plan_review_and_resumes_in_new_processes(
    workspace_root: Path, database_url: str
) -> None:
    root = ("--workspace-root", workspace_root)
    started = as_json(
        bunseki("eda", SALES_CSV, "--goal", "売上に影響する要因", *root, "--format", "json", database_url=database_url)
    )
    assert set(started) >= CONTRACT
    assert started["status"] == "awaiting_plan_review" and started["findings"] == []
    profile = started["profile"]
    assert isinstance(profile, dict) and {"rows", "duplicates", "columns", "correlations"} <= set(profile)
    frame = pd.read_csv(SALES_CSV, encoding="cp932")
    assert profile["rows"] == len(frame)
    sales = next(column for column in profile["columns"] if column["name"] == "売上金額")
    assert sales["mean"] == pytest.approx(frame["売上金額"].mean())
    assert sales["missing"] == int(frame["売上金額"].isna().sum())
    plan = started["plan"]
    assert isinstance(plan, list) and any(
        step["kind"] == "target" and step["columns"][0] == "売上金額" for step in plan
    )
    run_id = str(started["run_id"])

    revised = as_json(
        bunseki(
            "eda",
            "resume",
            run_id,
            "--feedback",
            "ステップ1を削除",
            *root,
            "--format",
            "json",
            database_url=database_url,
        )
    )
    assert revised["status"] == "awaiting_plan_review"
    assert isinstance(revised["plan"], list) and len(revised["plan"]) == len(plan) - 1

    results = as_json(
        bunseki("eda", "resume", run_id, "--approve", *root, "--format", "json", database_url=database_url)
    )
    assert results["status"] == "awaiting_results_review"
    findings = results["findings"]
    assert isinstance(findings, list) and len(findings) == len(revised["plan"])
    assert all(Path(path).is_file() for path in results["artifacts"])  # type: ignore[union-attr]

    done = as_json(bunseki("eda", "resume", run_id, "--approve", *root, "--format", "json", database_url=database_url))
    assert done["status"] == "completed" and done["error"] is None
    report = Path(str(done["report_path"]))
    assert report.read_text(encoding="utf-8") == done["report_markdown"]

    listed = bunseki("eda", "runs", "list", *root, "--format", "json", database_url=database_url)
    assert [(run["run_id"], run["status"]) for run in json.loads(listed.stdout)] == [(run_id, "completed")]
    again = bunseki("eda", "resume", run_id, "--approve", *root, "--format", "json", database_url=database_url)
    assert again.returncode == 7 and "not waiting" in json.loads(again.stdout)["error"]["message"]  # 7: conflict


def test_yes_approves_both_reviews_and_the_notebook_reruns_from_the_original_file(workspace_root: Path) -> None:
    done = as_json(bunseki("eda", SALES_CSV, "--yes", "--workspace-root", workspace_root, "--format", "json"))
    assert done["status"] == "completed"
    notebook_path = Path(str(done["report_path"])).with_suffix(".ipynb")
    notebook = nbformat.read(notebook_path, as_version=4)  # type: ignore[no-untyped-call]
    NotebookClient(notebook, timeout=300, resources={"metadata": {"path": str(notebook_path.parent)}}).execute()
    outputs = "\n".join(
        str(output.get("text", "")) for cell in notebook.cells if cell.cell_type == "code" for output in cell.outputs
    )
    for finding in done["findings"]:  # type: ignore[union-attr]
        assert finding["success"], finding
    assert "BUNSEKI_RESULT" in outputs  # the steps ran again, from the original CP932 file


def test_markdown_output_says_how_to_continue(workspace_root: Path) -> None:
    done = bunseki("eda", SALES_CSV, "--workspace-root", workspace_root)
    assert done.returncode == 0, done.stderr
    assert "awaiting_plan_review" in done.stdout and "bunseki eda resume" in done.stdout


@pytest.mark.parametrize(
    "args",
    [
        ("eda", "resume", "0" * 32),  # no answer given
        ("eda", "resume", "0" * 32, "--approve", "--stop"),
        ("eda", "missing-file.csv"),
        ("eda", SALES_CSV, "--format", "yaml"),
    ],
)
def test_usage_errors_exit_2(args: tuple[str, ...], workspace_root: Path) -> None:
    done = bunseki(*args, "--workspace-root", workspace_root)
    assert done.returncode == 2, (done.stdout, done.stderr)


def test_an_unknown_run_is_an_error_with_exit_6(workspace_root: Path) -> None:
    done = bunseki("eda", "resume", "0" * 32, "--approve", "--workspace-root", workspace_root, "--format", "json")
    assert done.returncode == 6 and json.loads(done.stdout)["error"]["type"] == "NotFound"

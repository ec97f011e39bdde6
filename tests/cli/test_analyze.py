"""``bunseki analyze``: the JSON contract, Markdown output, the batch mode and usage errors."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import nbformat
import pandas as pd
import pytest
from nbclient import NotebookClient

from bunseki.brain.results import RESULT_MARKER
from bunseki.samples import SALES_CSV
from tests import commandline

CONTRACT = {
    "status",
    "answer",
    "question",
    "report_markdown",
    "report_path",
    "workspace_dir",
    "artifacts",
    "executions",
    "loop_count",
}


def bunseki(*args: str | Path, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return commandline.bunseki(*args, timeout=timeout)


def test_json_answer_with_report_and_chart(workspace_root: Path) -> None:
    done = bunseki(
        "analyze", SALES_CSV, "地域別の売上の合計をグラフにして", "--workspace-root", workspace_root, "--format", "json"
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert set(result) >= CONTRACT
    assert result["status"] == "finalized"
    total = pd.read_csv(SALES_CSV, encoding="cp932").groupby("地域")["売上金額"].sum()
    assert f"{total.max():,}" in result["answer"]
    assert result["question"] is None
    assert Path(result["report_path"]).read_text(encoding="utf-8") == result["report_markdown"]
    assert Path(result["report_path"]).parent == Path(result["workspace_dir"])
    assert Path(result["workspace_dir"]).parent == workspace_root.resolve()
    [chart] = [path for path in result["artifacts"] if path.endswith(".png")]
    assert Path(chart).is_file() and Path(chart).name in result["report_markdown"]
    [execution] = result["executions"]
    assert execution["success"] is True and "groupby" in execution["code"] and execution["error"] is None
    assert result["loop_count"] == 1
    assert "reasoning" in done.stderr or "考えています" in done.stderr  # progress went to stderr


def test_the_report_notebook_reruns_from_the_original_file(workspace_root: Path) -> None:
    done = bunseki("analyze", SALES_CSV, "店舗別の客数の平均", "--workspace-root", workspace_root, "--format", "json")
    result = json.loads(done.stdout)
    workspace = Path(result["workspace_dir"])
    notebook = nbformat.read(workspace / "report.ipynb", as_version=4)
    NotebookClient(
        notebook, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(workspace)}}
    ).execute()
    printed = "".join(
        output.get("text", "")
        for cell in notebook.cells
        if cell.cell_type == "code"
        for output in cell.get("outputs", [])
    )
    replayed = next(line for line in printed.splitlines() if line.startswith(RESULT_MARKER))
    original = next(line for line in result["executions"][0]["stdout"].splitlines() if line.startswith(RESULT_MARKER))
    assert json.loads(replayed[len(RESULT_MARKER) :]) == json.loads(original[len(RESULT_MARKER) :])


def test_unclear_question_is_asked_back(workspace_root: Path) -> None:
    done = bunseki("analyze", SALES_CSV, "明日の天気は？", "--workspace-root", workspace_root, "--format", "json")
    assert done.returncode == 0
    result = json.loads(done.stdout)
    assert result["status"] == "asked"
    assert result["question"] and "売上金額" in result["question"]
    assert result["report_path"] is None and result["executions"] == []


def test_markdown_output_prints_the_report(workspace_root: Path) -> None:
    done = bunseki("analyze", SALES_CSV, "売上金額の中央値は？", "--workspace-root", workspace_root)
    assert done.returncode == 0
    median = pd.read_csv(SALES_CSV, encoding="cp932")["売上金額"].median()
    assert "結論" in done.stdout and f"{median:,.0f}" in done.stdout


def test_batch_answers_every_line_and_survives_failures(tmp_path: Path, workspace_root: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (data / "a.csv").write_text("city,sales\nOsaka,10\nTokyo,30\nOsaka,5\n", encoding="utf-8")
    (data / "b.csv").write_bytes("地域,件数\n関東,3\n近畿,4\n".encode("cp932"))
    (data / "broken.csv").write_bytes(b"")
    lines = [
        {"id": "q1", "file": "a.csv", "question": "total sales by city"},
        {"id": "q2", "file": "b.csv", "question": "件数の合計は？"},
        {"id": "q3", "file": "a.csv", "question": "What is the mean sales?"},
        {"id": "q4", "file": "broken.csv", "question": "anything"},
        {"id": "q5", "file": "missing.csv", "question": "anything"},
    ]
    batch = tmp_path / "questions.jsonl"
    batch.write_text("\n".join(json.dumps(line, ensure_ascii=False) for line in lines) + "\n", encoding="utf-8")
    done = bunseki(
        "analyze", "--batch", batch, "--data-dir", data, "--workspace-root", workspace_root, "--format", "jsonl"
    )
    assert done.returncode == 0, done.stderr
    results = {result["id"]: result for result in map(json.loads, done.stdout.splitlines())}
    assert set(results) == {"q1", "q2", "q3", "q4", "q5"}
    assert results["q1"]["status"] == "finalized" and "Tokyo" in results["q1"]["answer"]
    assert results["q2"]["status"] == "finalized" and "7" in results["q2"]["answer"]
    assert results["q3"]["status"] == "finalized" and "15" in results["q3"]["answer"]
    assert results["q1"]["workspace_dir"] == results["q3"]["workspace_dir"]  # one sandbox per file
    assert Path(results["q1"]["report_path"]).name == "report_q1.md"
    for failed in ("q4", "q5"):
        assert results[failed]["status"] == "error" and results[failed]["error"]["type"] == "RunFailed"
        assert results[failed]["error"]["message"]
    assert "[5/5]" in done.stderr


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["analyze", str(SALES_CSV)], "QUESTION"),
        (["analyze", str(SALES_CSV), "売上は？", "--format", "yaml"], "--format"),
        (["analyze", str(SALES_CSV), "売上は？", "--model", "gpt-4o"], "provider:model"),
        (["analyze", "missing.csv", "売上は？"], "does not exist"),
    ],
)
def test_usage_errors_exit_2(args: list[str], fragment: str, workspace_root: Path) -> None:
    done = bunseki(*args, "--workspace-root", workspace_root)
    assert done.returncode == 2, done.stdout + done.stderr
    assert fragment in done.stderr


def test_batch_usage_errors(tmp_path: Path, workspace_root: Path) -> None:
    batch = tmp_path / "bad.jsonl"
    batch.write_text('{"id": 1, "file": "a.csv"}\n', encoding="utf-8")
    done = bunseki("analyze", "--batch", batch, "--format", "jsonl", "--workspace-root", workspace_root)
    assert done.returncode == 2 and "line 1" in json.loads(done.stdout)["error"]["message"]  # JSONL asked: JSON
    mixed = bunseki("analyze", str(SALES_CSV), "売上", "--batch", batch, "--workspace-root", workspace_root)
    assert mixed.returncode == 2 and "not both" in mixed.stderr

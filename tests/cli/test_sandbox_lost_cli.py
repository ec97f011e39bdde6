"""A cell lost with its machine ends a command with exit status 5 (unavailable) and says to ask again."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bunseki.cli import app
from bunseki.cli.outcomes import EXIT_UNAVAILABLE
from bunseki.samples import SALES_CSV
from bunseki.sandbox import backends
from bunseki.sandbox.backend import SandboxBackend
from bunseki.settings import Settings
from tests.fakes.backends import LosingBackend


@pytest.fixture
def losing(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> LosingBackend:
    """The backend every command opens: its first cell is lost."""
    backend = LosingBackend(settings, lose={1})

    def create(_settings: Settings, *, warm: bool) -> SandboxBackend:
        return backend

    monkeypatch.setattr(backends, "create", create)
    return backend


def test_analyze_exits_unavailable_with_the_plain_message(losing: LosingBackend, workspace_root: Path) -> None:
    question = "地域別の売上合計は？"
    arguments = ["analyze", str(SALES_CSV), question, "--format", "json", "--workspace-root", str(workspace_root)]
    result = CliRunner().invoke(app, arguments)
    assert result.exit_code == EXIT_UNAVAILABLE, result.output
    error = json.loads(result.stdout)["error"]
    assert error["type"] == "SandboxLost" and "ask again" in error["message"]
    assert losing.lost and losing.stopped == losing.lost  # the command let its sandbox go


def test_run_code_exits_unavailable(losing: LosingBackend, tmp_path: Path, workspace_root: Path) -> None:
    code = tmp_path / "cell.py"
    code.write_text("print(1)", encoding="utf-8")
    workspace = workspace_root / "cell"
    result = CliRunner().invoke(app, ["run-code", str(code), "--workspace", str(workspace), "--json"])
    assert result.exit_code == EXIT_UNAVAILABLE, result.output
    assert json.loads(result.stdout)["error_type"] == "SandboxLost"

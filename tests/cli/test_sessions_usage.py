"""``bunseki sessions show`` prints what each turn cost; ``bunseki sessions trace`` what it did."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bunseki.brain.analyst.contract import AnalystBrain
from bunseki.brain.analyst.llm import LLMAnalystBrain
from bunseki.brain.analyst.offline import OfflineAnalystBrain
from bunseki.cli import app
from bunseki.cli.outcomes import EXIT_NOT_FOUND
from bunseki.samples import SALES_CSV
from bunseki.service import AnalysisService
from bunseki.settings import Settings
from tests.fakes.chat import scripted
from tests.fakes.usage import COMPLETION_TOKENS, MODEL, PRICES, PROMPT_TOKENS, QUESTION, TOKENS, turn_replies


@pytest.fixture
def session_id(settings: Settings) -> str:
    """A session whose first turn ran a scripted model and whose second ran offline."""
    model = scripted(*turn_replies())

    def brains(spec: str) -> AnalystBrain:
        return OfflineAnalystBrain() if spec == "offline" else LLMAnalystBrain(model, name=MODEL)

    with AnalysisService(settings.model_copy(update={"llm_prices": PRICES}), brains=brains) as service:
        session = service.create_session(SALES_CSV, model=MODEL)
        assert service.run_turn(session.id, QUESTION).status == "finalized"
        service.set_model(session.id, "offline")
        assert service.run_turn(session.id, "地域別の売上合計は？").status == "finalized"
        return session.id


def bunseki(root: Path, *args: str) -> tuple[int, str]:
    done = CliRunner().invoke(app, [*args, "--workspace-root", str(root)])
    return done.exit_code, done.stdout


def test_sessions_show_json_has_each_turns_usage_and_the_total(session_id: str, workspace_root: Path) -> None:
    code, out = bunseki(workspace_root, "sessions", "show", session_id, "--json")
    assert code == 0, out
    shown = json.loads(out)
    first, second = (turn["usage"] for turn in shown["turns"])
    assert first["model"] == MODEL and first["calls"] == len(TOKENS)
    assert (first["prompt_tokens"], first["completion_tokens"]) == (PROMPT_TOKENS, COMPLETION_TOKENS)
    assert first["cost"] > 0
    assert second == {
        "model": "offline",
        "calls": 0,
        "prompt_tokens": 0,
        "completion_tokens": 0,
        "seconds": 0.0,
        "cost": None,
    }
    assert shown["usage"]["calls"] == len(TOKENS)
    assert shown["usage"]["prompt_tokens"] == PROMPT_TOKENS
    assert shown["usage"]["cost"] == first["cost"]


def test_sessions_show_text_has_a_usage_table(session_id: str, workspace_root: Path) -> None:
    code, out = bunseki(workspace_root, "sessions", "show", session_id[:8])
    assert code == 0, out
    assert f"{PROMPT_TOKENS:,} + {COMPLETION_TOKENS:,}" in out
    assert "offline" in out and "no model ran" in out
    assert "$0.0009" in out and "total" in out


def test_sessions_trace_prints_the_latest_turn_as_a_tree(session_id: str, workspace_root: Path) -> None:
    code, out = bunseki(workspace_root, "sessions", "trace", session_id, "--turn", "1")
    assert code == 0, out
    assert "turn 1" in out and MODEL in out
    for part in ("reason", "code_exec", "report", "model call", "cell python", "1,000 + 5 tokens"):
        assert part in out
    code, out = bunseki(workspace_root, "sessions", "trace", session_id)  # the latest: offline
    assert code == 0, out
    assert "turn 2" in out and "model call" not in out


def test_sessions_trace_json(session_id: str, workspace_root: Path) -> None:
    code, out = bunseki(workspace_root, "sessions", "trace", session_id, "--turn", "1", "--json")
    assert code == 0, out
    trace = json.loads(out)
    assert trace["turn"] == 1 and trace["question"] == QUESTION
    assert [(call["prompt_tokens"], call["completion_tokens"]) for call in trace["model_calls"]] == TOKENS
    assert {"nodes", "executions", "errors", "seconds", "started_at"} <= trace.keys()


def test_sessions_trace_of_what_is_not_there_exits_6(session_id: str, workspace_root: Path) -> None:
    code, _ = bunseki(workspace_root, "sessions", "trace", "ffffffff")
    assert code == EXIT_NOT_FOUND
    code, _ = bunseki(workspace_root, "sessions", "trace", session_id, "--turn", "9")
    assert code == EXIT_NOT_FOUND

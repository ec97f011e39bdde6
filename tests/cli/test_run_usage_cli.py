"""``bunseki eda runs show`` and ``bunseki investigate`` print what the model calls cost, in text and JSON;
``eda runs show --trace`` prints the trace of each call that advanced the run."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from bunseki.brain.eda.llm import LLMEdaBrain
from bunseki.cli import app
from bunseki.service.eda import EdaService
from bunseki.settings import Settings
from tests.eda.conftest import SALES
from tests.eda.test_llm_run import PLAN
from tests.eda.test_run_usage import TOKENS
from tests.fakes.chat import scripted, tool_reply
from tests.fakes.usage import MODEL, PRICES, counted

SAMPLE = Path(__file__).parents[2] / "src" / "bunseki" / "samples" / "investigation" / "case.yaml"


def _run(*args: str | Path) -> str:
    done = CliRunner().invoke(app, list(map(str, args)), terminal_width=200)
    assert done.exit_code == 0, done.output
    return done.stdout


def _planned(settings: Settings, tmp_path: Path) -> str:
    """A run started by a scripted model (one planner call), paused at the plan review."""
    data = tmp_path / "売上.csv"
    data.write_bytes(SALES.encode("cp932"))
    brain = LLMEdaBrain(scripted(counted(tool_reply(PLAN), *TOKENS[0])), name=MODEL)
    priced = settings.model_copy(update={"llm_prices": PRICES})
    with EdaService(priced, brains=lambda spec: brain) as service:
        return service.start(data, model=MODEL).run_id


def test_eda_runs_show_prints_the_usage_and_the_trace(settings: Settings, tmp_path: Path) -> None:
    run_id = _planned(settings, tmp_path)
    root = ("--workspace-root", settings.workspace_root)
    shown = json.loads(_run("eda", "runs", "show", run_id, *root, "--format", "json"))
    prompt, completion = TOKENS[0]
    assert shown["usage"]["model"] == MODEL and shown["usage"]["calls"] == 1
    assert (shown["usage"]["prompt_tokens"], shown["usage"]["completion_tokens"]) == TOKENS[0]
    cost = (prompt * 0.15 + completion * 0.6) / 1_000_000
    text = " ".join(_run("eda", "runs", "show", run_id, *root).split())
    assert f"model usage / モデルの利用: {MODEL} · 700 + 90 tokens · 1 calls · " in text and f"${cost:.4f}" in text
    [segment] = json.loads(_run("eda", "runs", "show", run_id, *root, "--trace", "--format", "json"))
    assert segment["call"] == "start" and segment["status"] == "awaiting_plan_review"
    assert [(call["prompt_tokens"], call["completion_tokens"]) for call in segment["model_calls"]] == [TOKENS[0]]
    tree = _run("eda", "runs", "show", run_id, *root, "--trace")
    assert "call 1" in tree and "plan_analysis" in tree and "700 + 90 tokens" in tree


def test_an_offline_eda_run_prints_offline(settings: Settings, tmp_path: Path) -> None:
    data = tmp_path / "売上.csv"
    data.write_bytes(SALES.encode("cp932"))
    root = ("--workspace-root", settings.workspace_root)
    started = json.loads(_run("eda", data, *root, "--format", "json"))
    assert started["usage"]["model"] == "offline" and started["usage"]["calls"] == 0
    assert "model usage / モデルの利用: offline" in _run("eda", "runs", "show", started["run_id"], *root)


def test_investigate_json_carries_the_usage(settings: Settings) -> None:
    shown = json.loads(_run("investigate", SAMPLE, "--workspace-root", settings.workspace_root, "--format", "json"))
    assert shown["status"] == "completed"
    assert shown["usage"] == {
        "model": "offline",
        "calls": 0,
        "prompt_tokens": 0,
        "completion_tokens": 0,
        "seconds": 0.0,
        "cost": None,
    }

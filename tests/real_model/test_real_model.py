"""Every agent with an LLM brain, one real turn each, against llama.cpp serving SmolLM2-135M.

The model is far too small to be right, so only the shape is asserted: the turn ends with a valid
status, nothing crashes, and no number reaches an answer unless executed code printed it, a cited
passage contains it, or it is in the question or the data. Tokens are capped low and each turn has
a deadline, so the module stays within a few minutes on two cores.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from bunseki.brain.analyst.contract import is_sentence
from bunseki.brain.grounding import ungrounded
from bunseki.cli import app
from bunseki.data.load import load_table
from bunseki.data.summary import summarize
from bunseki.domain import CollectionInfo, SearchHit, streamed_answer
from bunseki.rag.models import SearchMode
from bunseki.samples import SALES_CSV
from bunseki.service import AnalysisService
from bunseki.service.eda import EdaService
from bunseki.service.investigations import InvestigationService
from bunseki.service.knowledge import KnowledgeService
from bunseki.settings import Settings

pytestmark = pytest.mark.real_model

ANALYST_STATUSES = {"finalized", "asked", "limit_reached", "error"}
LIMITS: dict[str, Any] = {
    "llm_max_tokens": 200,
    "llm_timeout_s": 60,
    "llm_max_retries": 1,
    "turn_deadline_s": 25,
    "max_loops": 1,
}


@pytest.fixture
def real(settings: Settings, real_model_url: str) -> Settings:
    return settings.model_copy(update={"model": "openai:local", "llm_base_url": real_model_url, **LIMITS})


def own_numbers(settings: Settings) -> str:
    """Bunseki's own figures, which its messages may state (a time limit, a number of attempts)."""
    return f"{settings.turn_deadline_s:g} {settings.llm_timeout_s:g} {settings.max_loops}"


def sales_summary() -> str:
    return summarize(load_table(SALES_CSV).frame).to_prompt()


def assert_grounded(answer: str | None, sources: Sequence[str]) -> None:
    assert not ungrounded(answer or "", sources), answer


def test_bunseki_analyze_with_a_real_model(real: Settings, monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in {"BUNSEKI_LLM_BASE_URL": real.llm_base_url, **LIMITS}.items():
        monkeypatch.setenv(name.upper() if name.startswith("BUNSEKI") else f"BUNSEKI_{name.upper()}", str(value))
    question = "地域別の売上の平均を出して"
    args = ["analyze", str(SALES_CSV), question, "--model", "openai:local", "--format", "json"]
    done = CliRunner().invoke(app, [*args, "--workspace-root", str(real.workspace_root)])
    assert done.exception is None or isinstance(done.exception, SystemExit), done.output
    result = json.loads(done.stdout)
    assert result["status"] in ANALYST_STATUSES
    outputs = [execution["stdout"] for execution in result["executions"]]
    assert_grounded(result["answer"], [question, sales_summary(), *outputs, own_numbers(real)])
    if result["status"] == "asked":
        assert is_sentence(result["question"])  # never a decision's name such as ask_action
    if result["status"] == "error":
        assert result["error"] and "Traceback" not in result["error"]


def test_a_session_chat_turn_with_a_real_model(real: Settings) -> None:
    with AnalysisService(real) as service:
        session = service.create_session(SALES_CSV, model="openai:local")
        question = "売上金額が大きい順に並べて"
        result = service.run_turn(session.id, question)
        assert result.status in ANALYST_STATUSES
        assert result.status != "asked" or is_sentence(result.question)
        outputs = [record.stdout for record in result.executions]
        assert_grounded(result.answer, [question, sales_summary(), *outputs, own_numbers(real)])
        # the session is still usable: its conversation reads back, the next turn starts
        assert [exchange.status for exchange in service.conversation(session.id)] == [result.status]


def test_the_eda_planner_and_coder_with_a_real_model(real: Settings) -> None:
    with EdaService(real) as service:
        run = service.start(SALES_CSV, goal="売上の傾向を見たい", model="openai:local")
        assert run.status in {"awaiting_plan_review", "error", "stopped"}
        if run.status == "awaiting_plan_review":
            run = service.resume(run.id, {"action": "approve"})
            assert run.status in {"awaiting_results_review", "completed", "error", "stopped"}
        assert run.status != "error" or run.error


class OnePassage:
    """A knowledge base with one passage that answers every query (no embedding model to load)."""

    HIT = SearchHit(
        collection="manuals",
        source="setup.md",
        title="導入ガイド",
        heading="容量",
        chunk_id="setup.md#1",
        score=0.9,
        text=(  # a definition list as the readers keep it: each term with its description
            "QDRANT_URL: Qdrant サーバーの URL。埋め込み Qdrant は 1 プロセス専用です。\n"
            "QDRANT_PORT: サーバーが待ち受けるポート。既定値は 6333 です。"
        ),
    )

    def search(
        self, query: str, collections: Sequence[str], *, top_k: int = 5, mode: SearchMode = "hybrid"
    ) -> list[SearchHit]:
        return [self.HIT]

    def collections(self) -> list[CollectionInfo]:
        return [CollectionInfo(name="manuals", documents=1, chunks=1, embedding_model="fake", location=":memory:")]


def test_knowledge_react_and_reflection_with_a_real_model(real: Settings) -> None:
    with KnowledgeService(real, knowledge_base=OnePassage()) as service:
        question = "Qdrant サーバーのポートは？"
        events: list[dict[str, Any]] = []
        answer = service.ask(question, ["manuals"], "openai:local", on_event=events.append)
        assert answer.status in {"answered", "unanswered", "error"}
        if any(event["event"] == "answer_delta" for event in events):  # the Reflection wrote a final answer
            assert streamed_answer(events) == answer.answer
        if answer.status == "answered":  # an answer stands only with a citation of the passage it rests on
            assert answer.citations and answer.citations[0].chunk_id == OnePassage.HIT.chunk_id
            assert_grounded(answer.answer, [question, *(citation.text for citation in answer.citations)])
        else:
            assert answer.status == "error" or answer.answer.startswith("申し訳ありません")


def test_investigator_hypotheses_and_edit_proposals_with_a_real_model(real: Settings, tmp_path: Path) -> None:
    # A defect no simple edit fixes (the reference filters spikes with a median), so every hypothesis is
    # refuted and the model is asked for edits or a patch; whatever it writes is applied to a copy or refused.
    from tests.investigator.builder import build_case
    from tests.investigator.cases import MEDIAN_FILTERED, THRESHOLD, spikes

    manifest = build_case(tmp_path / "spiky", buggy=THRESHOLD, correct=MEDIAN_FILTERED, signals={"d": spikes()})
    # Seven agents are asked in turn: short answers (they are cut off either way: the model is tiny), and a
    # deadline that is a ceiling for a loaded machine, not a measurement.
    patient = real.model_copy(update={"turn_deadline_s": 300, "llm_max_tokens": 64})
    view = InvestigationService(patient).run(manifest, model="openai:local")
    assert view.status == "completed", view.error
    (dataset,) = view.datasets
    assert (tmp_path / "spiky" / "algo.py").read_text(encoding="utf-8") == THRESHOLD
    for hypothesis in dataset.hypotheses:  # a verified one was verified by re-running it, never by the model
        assert not hypothesis.verified or "reproduces the reference on every frame" in hypothesis.evidence
    assert (dataset.fix is None) == (not any(h.verified for h in dataset.hypotheses))
    report = (Path(view.workspace_dir or "") / "reports" / "d.md").read_text(encoding="utf-8")
    assert "edit for H" in report or "The brain proposed" in report  # the edit agent was asked

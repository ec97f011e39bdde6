"""``bunseki kb ask|chat|unanswered`` with the offline brain over embedded Qdrant in the workspace root."""

from __future__ import annotations

import csv
import io
import json
import re
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bunseki.cli import app

CONTRACT = {"status", "answer", "citations", "thoughts", "reflection", "collections", "model", "elapsed_ms"}


@pytest.fixture
def root(tmp_path: Path, warm_cache: Path, corpus: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A workspace root with the corpus ingested as 'docs' (the warm cache spares the embedding)."""
    monkeypatch.delenv("QDRANT_URL", raising=False)
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    shutil.copy(warm_cache, workspace / "embeddings.sqlite")
    code, _, err = kb("ingest", corpus, "-c", "docs", "--workspace-root", workspace)
    assert code == 0, err
    return workspace


def kb(*args: str | Path, stdin: str | None = None) -> tuple[int, str, str]:
    """Exit code, stdout, and stderr with rich's line wrapping undone."""
    done = CliRunner().invoke(app, ["kb", *map(str, args)], input=stdin, terminal_width=200)
    return done.exit_code, done.stdout, " ".join(done.stderr.split())


def test_ask_json_follows_the_contract(root: Path) -> None:
    code, out, err = kb(
        "ask", "ポンプの点検はいつ行いますか", "-c", "docs", "--format", "json", "--workspace-root", root
    )
    assert code == 0, err
    answer = json.loads(out)
    assert answer.keys() >= CONTRACT
    assert answer["status"] == "answered"
    assert "毎月第1月曜日に点検し" in answer["answer"] and answer["answer"].endswith("[1]")
    assert answer["collections"] == ["docs"] and answer["model"] == "offline"
    assert isinstance(answer["elapsed_ms"], int)
    [citation] = answer["citations"]
    assert citation.keys() == {"source", "title", "heading", "chunk_id", "score", "text"}
    assert (citation["source"], citation["chunk_id"]) == ("papers/maintenance.pdf", "papers/maintenance.pdf#0")
    assert "第1月曜日" in citation["text"]
    assert answer["reflection"] == {"draft": answer["answer"], "final": answer["answer"], "changed": False}
    assert [step["kind"] for step in answer["thoughts"]] == [
        "thought",
        "tool_call",
        "observation",
        "draft",
        "reflection",
    ]
    assert answer["thoughts"][1]["tool"] == "search_rag_knowledge_base"


def test_ask_text_shows_answer_citations_and_thought_process(root: Path) -> None:
    code, out, _ = kb("ask", "How do I turn on two-factor authentication?", "-c", "docs", "--workspace-root", root)
    assert code == 0
    flat = " ".join(out.split())
    assert flat.startswith("answered (offline,")
    assert "According to Account security (Two-factor authentication): “Open Settings > Security" in flat
    assert "[1] guide/security.html › Two-factor authentication (guide/security.html#1)" in flat
    assert "thought process" in flat and "tool_call: search_rag_knowledge_base" in flat


def test_batch_answers_every_line_and_a_failing_one_does_not_stop_it(root: Path, tmp_path: Path) -> None:
    questions = tmp_path / "questions.jsonl"
    lines = [
        {"id": "q1", "question": "Within how many days can I return an item?"},
        "this is not JSON",
        {"id": 7, "question": ""},
        {"id": "q4", "question": "社員食堂の営業時間は？"},
    ]
    questions.write_text(
        "\n".join(line if isinstance(line, str) else json.dumps(line, ensure_ascii=False) for line in lines) + "\n",
        encoding="utf-8",
    )
    code, out, err = kb("ask", "--batch", questions, "-c", "docs", "--format", "jsonl", "--workspace-root", root)
    assert code == 0, err
    answers = [json.loads(line) for line in out.splitlines()]
    assert [(a["id"], a["status"]) for a in answers] == [
        ("q1", "answered"),
        (2, "error"),
        (7, "error"),
        ("q4", "unanswered"),
    ]
    assert all(a.keys() >= CONTRACT for a in answers)
    assert "14日以内" in answers[0]["answer"]
    assert answers[0]["citations"][0]["chunk_id"] == "notes/returns.txt#0"
    assert answers[2]["answer"] == "InputError: the question is empty; ask something."
    assert "2 question(s) failed" in err


def test_unanswered_questions_are_listed_and_exported_as_csv(root: Path) -> None:
    assert kb("ask", "消費税率は何パーセントですか", "-c", "docs", "--workspace-root", root)[0] == 0
    code, out, _ = kb("ask", "Who won the 2020 World Cup?", "-c", "docs", "--format", "json", "--workspace-root", root)
    assert json.loads(out)["status"] == "unanswered"

    code, out, _ = kb("unanswered", "--csv", "--workspace-root", root)
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [row["question"] for row in rows] == ["消費税率は何パーセントですか", "Who won the 2020 World Cup?"]
    assert {row["collections"] for row in rows} == {"docs"}
    assert all(row["reason"] and row["created_at"] for row in rows)

    code, out, _ = kb("unanswered", "--workspace-root", root, "--json")
    assert code == 0
    first = json.loads(out)[0]
    assert (first["question"], first["collections"]) == ("消費税率は何パーセントですか", ["docs"])
    code, out, _ = kb("unanswered", "--workspace-root", root)
    assert code == 0 and "消費税率" in out and "reason" in out
    assert (root / "bunseki.db").is_file()  # the store lives under the workspace root


def test_chat_keeps_history_and_clear_forgets_it(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from bunseki.service.knowledge import KnowledgeChat

    sizes: list[int] = []
    original = KnowledgeChat.ask

    def spy(self: KnowledgeChat, question: str):  # type: ignore[no-untyped-def]
        sizes.append(len(self.history()))
        return original(self, question)

    monkeypatch.setattr(KnowledgeChat, "ask", spy)
    monkeypatch.setenv("BUNSEKI_WORKSPACE_ROOT", str(root))  # the environment names the workspace root
    stdin = "\n".join(
        [
            "パスワードを忘れたときはどうすればいいですか",
            "ポンプの点検はいつ行いますか",
            "/clear",
            "荷物はいつ届きますか",
            "/quit",
        ]
    )
    code, out, err = kb("chat", "-c", "docs", stdin=stdin)
    assert code == 0
    assert sizes == [0, 1, 0]
    flat = " ".join(out.split())
    assert flat.count("answered (offline,") == 3
    assert "history cleared" in flat
    assert "「パスワードを忘れた方」を選び" in flat and "3営業日以内" in flat

    # the conversation is kept: resumed in a new process, it still has the turn after /clear
    conversation = re.search(r"conversation ([0-9a-f]{32})", err).group(1)  # type: ignore[union-attr]
    sizes.clear()
    code, out, err = kb("chat", "--conversation", conversation, stdin="配送は何日かかりますか\n/quit")
    assert code == 0 and "(1 turns)" in " ".join(err.split()).replace("（", "(").replace("）", ")")
    assert sizes == [1]


def test_usage_errors(root: Path) -> None:
    assert kb("ask", "q", "--workspace-root", root)[0] == 2  # no collection
    code, _, err = kb("ask", "q", "-c", "missing", "--workspace-root", root)
    assert code == 6 and "NotFound: there is no collection 'missing'" in err  # 6: not found
    assert kb("ask", "-c", "docs", "--workspace-root", root)[0] == 2  # neither a question nor --batch


def test_citations_are_listed_by_the_number_the_answer_cites_them_by(capsys: pytest.CaptureFixture[str]) -> None:
    from bunseki.cli.kb import print_answer
    from bunseki.domain import Answer, Citation, Reflection

    cited = Citation(source="gzip.1.txt", title="GZIP(1)", heading="OPTIONS", chunk_id="gzip.1.txt#31", score=0.5,
                     text="-t --test: Test.", number=2)  # fmt: skip
    answer = Answer(
        question="Which option tests a file?",
        status="answered",
        answer="According to GZIP(1) (OPTIONS): “-t --test: Test.” [2]",
        citations=[cited],
        reflection=Reflection(draft=None, final="", changed=False),
        collections=["docs"],
        model="offline",
        elapsed_ms=5,
    )
    print_answer(answer)
    assert "[2] gzip.1.txt › OPTIONS" in capsys.readouterr().out  # as the answer cites it, not [1]
    assert "number" not in answer.model_dump(mode="json")["citations"][0]  # the JSON contract is unchanged

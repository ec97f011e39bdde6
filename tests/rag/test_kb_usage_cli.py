"""``bunseki kb ask`` says what the answer's model calls cost: "offline" for the built-in answerer."""

from __future__ import annotations

import json
from pathlib import Path

from tests.rag.test_kb_ask_cli import kb, root  # noqa: F401  (root: the fixture, with the corpus ingested)

QUESTION = "ポンプの点検はいつ行いますか"


def test_ask_prints_the_usage_in_json_and_text(root: Path) -> None:  # noqa: F811
    code, out, err = kb("ask", QUESTION, "-c", "docs", "--format", "json", "--workspace-root", root)
    assert code == 0, err
    usage = json.loads(out)["usage"]
    assert (usage["model"], usage["calls"], usage["prompt_tokens"], usage["cost"]) == ("offline", 0, 0, None)
    code, out, err = kb("ask", QUESTION, "-c", "docs", "--workspace-root", root)
    assert code == 0, err
    assert "model usage / モデルの利用: offline" in out

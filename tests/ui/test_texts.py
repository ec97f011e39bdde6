"""The interface text: both languages say everything, and Japanese is chosen when the browser asks."""

from __future__ import annotations

import string

import pytest

from bunseki.errors import (
    ConfigurationError,
    DataLoadError,
    ModelRequestError,
    NotFound,
    SandboxStartError,
    SessionBusy,
    StorageError,
)
from bunseki.ui.notices import friendly
from bunseki.ui.texts import EN, JA, Texts, browser_language


def fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_japanese_and_english_have_the_same_texts_with_the_same_fields() -> None:
    assert JA.keys() == EN.keys()
    for key in JA:
        assert fields(JA[key]) == fields(EN[key]), key
        assert JA[key].strip() and EN[key].strip(), key


@pytest.mark.parametrize(
    ("locale", "accept_language", "expected"),
    [
        ("ja", None, "ja"),
        ("ja-JP", "en-US,en;q=0.9", "ja"),  # navigator.language is the browser's first choice
        ("en-US", "ja;q=0.8", "en"),
        (None, "ja,en-US;q=0.8,en;q=0.7", "ja"),
        (None, "en-US,en;q=0.9,ja;q=0.8", "en"),
        (None, "en;q=0.5, ja-JP;q=0.9", "ja"),
        (None, "ja_JP", "ja"),
        (None, "fr-FR", "en"),
        (None, None, "en"),
        ("", "", "en"),
    ],
)
def test_japanese_is_the_default_when_the_browser_asks_for_it(
    locale: str | None, accept_language: str | None, expected: str
) -> None:
    assert browser_language(locale, accept_language) == expected


def test_texts_fill_in_their_fields() -> None:
    assert Texts("ja")("session_created", name="売上.csv", rows=18300, columns=8) == (
        "「売上.csv」を読み込みました（18,300 行 × 8 列）。質問をどうぞ。"
    )
    assert Texts("en")("rows_change", before=18300, after=5490) == "Rows: 18,300 → 5,490"
    assert Texts("en").get("node_nosuchnode", "nosuchnode") == "nosuchnode"


@pytest.mark.parametrize(
    ("error", "japanese", "english"),
    [
        (DataLoadError("empty file"), "読み込めませんでした", "could not be read"),
        (ConfigurationError("openai needs an API key"), "モデルはまだ使えません", "not ready to use"),
        (SessionBusy("busy"), "回答中", "answering another question"),
        (NotFound("no session"), "見つかりませんでした", "could not be found"),
        (StorageError("disk full"), "データベース", "database"),
        (SandboxStartError("no bwrap"), "サンドボックス", "sandbox"),
        (ModelRequestError("429"), "モデルから", "model gave no usable answer"),
        (RuntimeError("boom"), "思いがけないエラー", "unexpected"),
    ],
)
def test_errors_are_explained_in_the_persons_language(error: Exception, japanese: str, english: str) -> None:
    for texts, words in ((Texts("ja"), japanese), (Texts("en"), english)):
        notice = friendly(error, texts)
        assert notice.kind == "error"
        assert words in notice.text
        assert str(error) in (notice.detail or "")

"""Chunks follow the document's structure, stay near the target length and overlap."""

from __future__ import annotations

import hashlib
import itertools

from bunseki.rag.chunking import ChunkingOptions, chunk_document, split_sentences
from bunseki.rag.models import Document, Section, embedded_text

JAPANESE_SENTENCES = [
    f"これは{number}番目の文で、チャンク分割の動作を確かめるために書かれています。" for number in range(12)
]


def document(*sections: Section, kind: str = "text") -> Document:
    return Document(source="dir/doc.txt", title="文書", kind=kind, sections=sections)  # type: ignore[arg-type]


def test_japanese_sentence_ends_split_and_closing_brackets_stay() -> None:
    assert split_sentences("「はい。」と言った。本当？うん！ Done. Next one") == [
        "「はい。」",
        "と言った。",
        "本当？",
        "うん！",
        "Done.",
        "Next one",
    ]


def test_a_long_japanese_paragraph_is_cut_at_sentence_ends_with_overlap() -> None:
    paragraph = "".join(JAPANESE_SENTENCES)
    chunks = chunk_document(document(Section("本文", (paragraph,))), ChunkingOptions(chars=120, overlap_chars=50))
    assert len(chunks) > 3
    for chunk in chunks:
        assert len(chunk.text) <= 120
        assert chunk.text.endswith("。")  # never cut mid-sentence
        assert chunk.heading == "本文"
    for previous, following in itertools.pairwise(chunks):
        last_sentence = split_sentences(previous.text)[-1]
        assert following.text.startswith(last_sentence)  # the overlap repeats the previous end
    # Nothing is lost: every sentence is in some chunk.
    assert all(any(sentence in chunk.text for chunk in chunks) for sentence in JAPANESE_SENTENCES)


def test_chunks_never_span_sections_and_short_paragraphs_are_packed() -> None:
    chunks = chunk_document(
        document(Section("A", ("一つ目の段落。", "二つ目の段落。")), Section("B", ("別の節の段落。",))),
        ChunkingOptions(chars=400, overlap_chars=80),
    )
    assert [(chunk.heading, chunk.text) for chunk in chunks] == [
        ("A", "一つ目の段落。\n\n二つ目の段落。"),
        ("B", "別の節の段落。"),
    ]
    assert [chunk.chunk_id for chunk in chunks] == ["dir/doc.txt#0", "dir/doc.txt#1"]
    assert all(chunk.source == "dir/doc.txt" and chunk.title == "文書" for chunk in chunks)


def test_code_is_cut_at_line_ends() -> None:
    body = "\n".join(f"    total += values[{index}]  # step {index}" for index in range(30))
    chunks = chunk_document(document(Section("def total(values)", (body,)), kind="code"), ChunkingOptions(200, 0))
    assert len(chunks) > 1
    for chunk in chunks:
        assert all(line.startswith("    total += values[") for line in chunk.text.split("\n"))


def test_an_overlong_sentence_is_cut_hard_and_english_at_spaces() -> None:
    words = " ".join(f"word{index}" for index in range(100))
    chunks = chunk_document(document(Section("", (words,))), ChunkingOptions(chars=100, overlap_chars=0))
    assert all(len(chunk.text) <= 100 for chunk in chunks)
    assert " ".join(chunk.text for chunk in chunks) == words


def test_content_hash_is_of_the_embedded_text() -> None:
    chunk = chunk_document(document(Section("見出し", ("本文です。",))), ChunkingOptions())[0]
    assert chunk.embedded_text == "文書 / 見出し\n本文です。"
    assert chunk.content_hash == hashlib.sha256(embedded_text("文書", "見出し", "本文です。").encode()).hexdigest()
    other = chunk_document(document(Section("見出し", ("本文でした。",))), ChunkingOptions())[0]
    assert other.content_hash != chunk.content_hash


def test_overlap_is_at_most_half_a_chunk() -> None:
    assert ChunkingOptions(chars=100, overlap_chars=90).overlap == 50

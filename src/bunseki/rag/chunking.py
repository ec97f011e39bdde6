"""Cutting a Document into chunks that respect its structure.

A chunk never spans two sections (headings, Q&A pairs, code definitions). Within a section,
paragraphs are packed up to the target length; a longer paragraph is cut at sentence ends
(。！？ and . ! ? before a space), source code at line ends; only a single over-long sentence or
line is cut mid-way. Each chunk after the first of a section repeats the end of the one before.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from bunseki.rag.embedding import content_hash
from bunseki.rag.models import Chunk, Document, Section, embedded_text

# Japanese sentence ends (a closing bracket after one stays with its sentence), Western ones before
# a space, and line breaks.
_SENTENCE_END: Final = re.compile(r"(?<=[。！？])(?![」』）)])|(?<=[。！？][」』）)])|(?<=[.!?])\s+|\n+")


@dataclass(frozen=True)
class ChunkingOptions:
    """Target chunk length and the overlap between consecutive chunks, in characters."""

    chars: int = 400
    overlap_chars: int = 80

    @property
    def overlap(self) -> int:
        # An overlap of half a chunk or more would make every chunk mostly a repeat.
        return min(self.overlap_chars, self.chars // 2)


def chunk_document(document: Document, options: ChunkingOptions) -> list[Chunk]:
    """The chunks of ``document`` in document order, numbered ``source#0``, ``source#1``…"""
    chunks: list[Chunk] = []
    for section in document.sections:
        for text in _section_texts(section, options, code=document.kind == "code"):
            chunk_id = f"{document.source}#{len(chunks)}"
            digest = content_hash(embedded_text(document.title, section.heading, text))
            chunks.append(
                Chunk(
                    source=document.source,
                    title=document.title,
                    heading=section.heading,
                    chunk_id=chunk_id,
                    text=text,
                    content_hash=digest,
                    kind=document.kind,
                )
            )
    return chunks


def split_sentences(text: str) -> list[str]:
    """``text`` cut after each sentence end; the pieces put back together give the text again (modulo spaces)."""
    return [piece.strip() for piece in _SENTENCE_END.split(text) if piece and piece.strip()]


def _section_texts(section: Section, options: ChunkingOptions, *, code: bool) -> list[str]:
    """The chunk texts of one section: units (paragraphs, or sentences of long ones) packed with overlap."""
    separator = "\n" if code else "\n\n"
    units: list[tuple[str, str]] = []  # (text, separator before it when packed after another unit)
    for block in section.blocks:
        if len(block) <= options.chars:
            units.append((block, separator))
            continue
        pieces = block.split("\n") if code else split_sentences(block)
        joiner = "\n" if code else ("" if _is_japanese(block) else " ")
        first = True
        for piece in pieces:
            for part in _hard_cut(piece, options.chars):
                units.append((part, separator if first else joiner))
                first = False

    texts: list[str] = []
    current = ""
    tail: list[tuple[str, str]] = []  # the last units of the current chunk, for the next one's overlap
    for unit, joiner in units:
        if current and len(current) + len(joiner) + len(unit) > options.chars:
            texts.append(current)
            current = _overlap(tail, options.overlap)
            tail = []
            if current and len(current) + len(joiner) + len(unit) > options.chars:
                current = ""
        current = f"{current}{joiner}{unit}" if current else unit
        tail.append((unit, joiner))
    if current:
        texts.append(current)
    return texts


def _overlap(tail: list[tuple[str, str]], limit: int) -> str:
    """The last whole units of a chunk that fit in ``limit`` characters, joined as they were."""
    kept: list[tuple[str, str]] = []
    size = 0
    for unit, joiner in reversed(tail):
        if size + len(unit) + len(joiner) > limit:
            break
        kept.insert(0, (unit, joiner))
        size += len(unit) + len(joiner)
    return "".join(joiner + unit if index else unit for index, (unit, joiner) in enumerate(kept))


def _hard_cut(text: str, size: int) -> list[str]:
    """A sentence or line longer than a chunk, cut into chunk-sized pieces (at spaces when there are some)."""
    pieces: list[str] = []
    while len(text) > size:
        cut = text.rfind(" ", size // 2, size)
        cut = size if cut <= 0 else cut
        pieces.append(text[:cut].strip())
        text = text[cut:].strip()
    if text:
        pieces.append(text)
    return pieces


def _is_japanese(text: str) -> bool:
    """Whether a text's sentences join without spaces: it has kana or kanji."""
    return any("\u3040" <= char <= "\u30ff" or "\u4e00" <= char <= "\u9fff" for char in text[:200])

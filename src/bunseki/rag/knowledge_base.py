"""The knowledge base: ingest files into collections, search them, list, inspect and delete them.

An ingest reads each file, compares its hash with what the collection remembers, and re-chunks,
re-embeds and re-writes only new and changed files; files gone from an ingested directory lose
their chunks. A search embeds the question once and asks every chosen collection.
"""

from __future__ import annotations

import hashlib
import os
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any, Final

from bunseki.domain import (
    CollectionInfo,
    DocumentInfo,
    IngestProblem,
    IngestProgress,
    IngestReport,
    ProgressCallback,
    SearchHit,
)
from bunseki.errors import DocumentReadError, InputError, KnowledgeBaseError
from bunseki.rag.chunking import ChunkingOptions, chunk_document
from bunseki.rag.embedding import (
    CachedEmbedder,
    E5Embedder,
    Embedder,
    EmbeddingCache,
    content_hash,
    embed_passages,
)
from bunseki.rag.lexical import LEXICON_ID, Lexicon
from bunseki.rag.models import Chunk, DocumentKind, SearchMode
from bunseki.rag.readers import document_kind, read_document
from bunseki.rag.store import FileRecord, StoredChunk, VectorStore, validate_collection_name
from bunseki.rag.units import answer_units
from bunseki.settings import Settings

# Bumped whenever reading, chunking or lexical weighting changes, so every file is re-ingested.
# 2: definitions keep their terms, table rows stay whole, page furniture left out; 3: answer units embedded
PIPELINE_VERSION: Final = "3"
# What a chunk's payload holds of a search hit: all but its collection and score, which the search gives.
_HIT_FIELDS: Final = tuple(name for name in SearchHit.model_fields if name not in ("collection", "score"))
# Documents larger than this are not knowledge but data dumps; they are refused, not half-read.
_MAX_FILE_BYTES: Final = 200 * 1024 * 1024


class KnowledgeBase:
    """Collections of chunked, embedded documents in Qdrant. Close it (or use ``with``) when done:
    embedded Qdrant allows one open instance per folder."""

    def __init__(
        self,
        store: VectorStore,
        *,
        embedder: Embedder,
        lexicon: Lexicon,
        cache: EmbeddingCache | None = None,
        chunking: ChunkingOptions | None = None,
    ) -> None:
        self.store = store
        self.embedder = embedder
        self.lexicon = lexicon
        self.cache = cache
        self.chunking = chunking or ChunkingOptions()

    @classmethod
    def open(cls, settings: Settings, *, embedder: Embedder | None = None) -> KnowledgeBase:
        """The knowledge base ``settings`` describe: a Qdrant server if QDRANT_URL is set, else embedded
        Qdrant under the workspace root; the embedding cache under the workspace root either way."""
        api_key = settings.qdrant_api_key.get_secret_value() if settings.qdrant_api_key else None
        store = VectorStore.open(url=settings.qdrant_url, api_key=api_key, path=settings.qdrant_path)
        try:
            return cls(
                store,
                embedder=embedder or E5Embedder(),
                lexicon=Lexicon(),
                cache=EmbeddingCache(settings.embedding_cache_path),
                chunking=ChunkingOptions(
                    chars=settings.rag_chunk_chars, overlap_chars=settings.rag_chunk_overlap_chars
                ),
            )
        except BaseException:
            store.close()  # embedded Qdrant's folder lock must not outlive a failed open
            raise

    @property
    def answer_embedder(self) -> Embedder:
        """The embedder for scoring answer units: their vectors come from the cache, where ingest put them."""
        return CachedEmbedder(self.embedder, self.cache) if self.cache is not None else self.embedder

    def close(self) -> None:
        self.store.close()

    def __enter__(self) -> KnowledgeBase:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self.close()

    # --- collections ---

    def create(self, name: str) -> CollectionInfo:
        """Create an empty collection (an existing one is left as it is) and describe it."""
        self._ensure_collection(validate_collection_name(name))
        return self.info(name)

    def collections(self) -> list[CollectionInfo]:
        """Every collection with its document and chunk counts, by name."""
        return [self.info(name) for name in self.store.names()]

    def info(self, name: str) -> CollectionInfo:
        """One collection's counts and embedding model; NotFound if there is none of that name."""
        metadata = self.store.metadata(name)
        return CollectionInfo(
            name=name,
            documents=len(self.store.manifest(name)),
            chunks=self.store.count(name),
            embedding_model=str(metadata.get("embedding_model", "unknown")),
            location=self.store.location,
        )

    def delete(self, name: str) -> None:
        """Delete a collection and its chunks; NotFound if there is none of that name."""
        self.store.delete(name)

    def documents(self, name: str) -> list[DocumentInfo]:
        """The files ingested into a collection, by source; NotFound if there is none of that name."""
        found: dict[str, tuple[str, str, int]] = {}
        for payload in self.store.payloads(name, ["source", "title", "kind"]):
            source = str(payload.get("source", ""))
            title, kind, chunks = found.get(source, (str(payload.get("title", "")), str(payload.get("kind", "")), 0))
            found[source] = (title, kind, chunks + 1)
        return [
            DocumentInfo(source=source, title=title, kind=kind, chunks=chunks)
            for source, (title, kind, chunks) in sorted(found.items())
        ]

    def chunks(self, name: str, *, kind: DocumentKind | None = None, limit: int = 50) -> list[SearchHit]:
        """Up to ``limit`` chunks of a collection (of one ``kind``, if given) in document order, score 0."""
        hits = [_hit(name, payload, 0.0) for payload in self.store.payloads(name, list(_HIT_FIELDS), kind=kind)]
        hits.sort(key=lambda hit: (hit.source, _chunk_number(hit.chunk_id)))
        return hits[:limit]

    # --- ingest ---

    def ingest(
        self, paths: Sequence[Path], collection: str, *, progress: ProgressCallback | None = None
    ) -> IngestReport:
        """Bring ``collection`` up to date with ``paths`` (files, or directories walked recursively).

        A file's ``source`` is its path relative to the directory given (or its name, for a file
        given directly). Unreadable files are listed in the report's ``problems``; the rest go in.

        Raises:
            InputError: a path does not exist, or the collection name is not valid.
            KnowledgeBaseError: Qdrant cannot be used, or the collection was built by another model.
        """
        started = time.perf_counter()
        validate_collection_name(collection)
        files = list(_files_to_ingest(paths))
        self._ensure_collection(collection)
        known = self.store.manifest(collection)
        seen: set[str] = set()
        problems: list[IngestProblem] = []
        chunks_written = embedded = skipped = 0
        for done, (root, path, source) in enumerate(files, start=1):
            seen.add(source)

            def embedding(chunks_done: int, chunks_total: int, done: int = done, source: str = source) -> None:
                if progress is not None:
                    progress(IngestProgress(done - 1, len(files), source, chunks_done, chunks_total))

            try:
                outcome = self._ingest_file(collection, root, path, source, known.get(source), embedding)
            except DocumentReadError as exc:  # its earlier chunks, if any, stay until it reads again
                problems.append(IngestProblem(source=source, message=str(exc)))
            else:
                if outcome is None:
                    skipped += 1
                else:
                    chunks_written += outcome[0]
                    embedded += outcome[1]
            if progress is not None:
                progress(IngestProgress(files_done=done, files_total=len(files), source=source))
        removed = self._remove_missing(collection, paths, known, seen)
        return IngestReport(
            collection=collection,
            files=len(files),
            chunks=chunks_written,
            skipped=skipped,
            removed=removed,
            seconds=time.perf_counter() - started,
            embedded=embedded,
            problems=tuple(problems),
        )

    def _ingest_file(
        self,
        collection: str,
        root: Path,
        path: Path,
        source: str,
        known: FileRecord | None,
        on_batch: Callable[[int, int], None],
    ) -> tuple[int, int] | None:
        """Write one file's chunks; None if it is unchanged, else (chunks written, chunks embedded now)."""
        raw = _read_file(path, source)
        file_hash = hashlib.sha256(raw).hexdigest()
        root_name = str(root)
        if known is not None and (known.file_hash, known.pipeline) == (file_hash, PIPELINE_VERSION):
            return None
        chunks = chunk_document(read_document(path, source, raw), self.chunking)
        texts = [(chunk.content_hash, chunk.embedded_text) for chunk in chunks]
        if self.cache is not None:  # each chunk's answer units too, into the cache: answering reads them there
            units = dict.fromkeys(u.embedded for c in chunks for u in answer_units(c.title, c.heading, c.text))
            texts += [(content_hash(unit), unit) for unit in units]

        def embedding(done: int, total: int) -> None:  # texts embedded, shown as the chunks they amount to
            on_batch(done * len(chunks) // total, len(chunks))

        vectors, fresh = embed_passages(self.embedder, self.cache, texts, on_batch=embedding)
        embedded = sum(chunk.content_hash in fresh for chunk in chunks)
        stored = [
            StoredChunk(
                chunk_id=chunk.chunk_id,
                payload=_payload(chunk, file_hash=file_hash, root=root_name),
                dense=vector.tolist(),
                lexical=self.lexicon.document_vector(chunk.embedded_text),
            )
            for chunk, vector in zip(chunks, vectors[: len(chunks)], strict=True)
        ]
        if known is not None:  # a changed file: its old chunks go first (it may now have fewer)
            self.store.delete_source(collection, source)
        self.store.upsert(collection, stored)
        return len(stored), embedded

    def _remove_missing(
        self, collection: str, paths: Sequence[Path], known: dict[str, FileRecord], seen: set[str]
    ) -> int:
        """Delete the chunks of files that were ingested from one of these directories and are gone."""
        roots = {str(path.resolve()) for path in paths if path.is_dir()}
        gone = [source for source, record in known.items() if record.root in roots and source not in seen]
        for source in gone:
            self.store.delete_source(collection, source)
        return len(gone)

    def _ensure_collection(self, name: str) -> None:
        """Create ``name`` for this pipeline, or check that the existing one was built by it."""
        if not self.store.exists(name):
            self.store.create(
                name,
                dimension=self.embedder.dimension,
                metadata={"embedding_model": self.embedder.model_id, "lexicon": LEXICON_ID},
            )
            return
        metadata = self.store.metadata(name)
        built_with = (metadata.get("embedding_model"), metadata.get("lexicon"))
        if built_with != (self.embedder.model_id, LEXICON_ID):
            raise KnowledgeBaseError(
                f"collection '{name}' was built with {built_with[0]} / {built_with[1]}, not "
                f"{self.embedder.model_id} / {LEXICON_ID}; their vectors do not mix. Ingest into a new collection, "
                f"or delete '{name}' and ingest again."
            )

    # --- search ---

    def search(
        self, query: str, collections: Sequence[str], *, top_k: int = 5, mode: SearchMode = "hybrid"
    ) -> list[SearchHit]:
        """The ``top_k`` chunks that best answer ``query`` across ``collections``, best first.

        Scores rank hits (RRF in hybrid mode, cosine or BM25 otherwise); never compare them with a
        fixed threshold. NotFound if a collection does not exist.
        """
        if not query.strip():
            raise InputError("the search query is empty; ask a question or give keywords.")
        if top_k < 1:
            raise InputError(f"top_k must be at least 1, not {top_k}.")
        dense = self.embedder.query(query).tolist()
        lexical = self.lexicon.query_vector(query)
        hits: list[SearchHit] = []
        for collection in dict.fromkeys(collections):
            for point in self.store.query(collection, dense=dense, lexical=lexical, mode=mode, limit=top_k):
                hits.append(_hit(collection, point.payload or {}, float(point.score)))
        # Scores of one mode are on one scale in every collection (ranks for RRF, the same model for cosines).
        hits.sort(key=lambda hit: hit.score, reverse=True)
        return hits[:top_k]


def _hit(collection: str, payload: Mapping[str, Any], score: float) -> SearchHit:
    """The chunk whose stored payload this is, as a hit of ``collection`` with ``score``."""
    return SearchHit(
        collection=collection, score=score, **{field: str(payload.get(field, "")) for field in _HIT_FIELDS}
    )


def _chunk_number(chunk_id: str) -> int:
    number = chunk_id.rpartition("#")[2]
    return int(number) if number.isdigit() else 0


def _payload(chunk: Chunk, *, file_hash: str, root: str) -> dict[str, str]:
    return {
        "source": chunk.source,
        "title": chunk.title,
        "heading": chunk.heading,
        "chunk_id": chunk.chunk_id,
        "text": chunk.text,
        "content_hash": chunk.content_hash,
        "kind": chunk.kind,
        "file_hash": file_hash,
        "root": root,
        "pipeline": PIPELINE_VERSION,
    }


def _files_to_ingest(paths: Sequence[Path]) -> Iterator[tuple[Path, Path, str]]:
    """(root, file, source) for every readable-looking file under ``paths``, in a stable order.

    Hidden files and directories (.git, .venv) and symlinks are skipped: a link could lead out of
    the directory that was handed over.
    """
    if not paths:
        raise InputError("nothing to ingest: give at least one file or directory.")
    for given in paths:
        path = given.resolve()
        if not path.exists():
            raise InputError(f"{given} does not exist; check the path.")
        if path.is_file():
            yield path.parent, path, path.name
            continue
        for directory, subdirectories, names in os.walk(path):
            subdirectories[:] = sorted(name for name in subdirectories if not name.startswith("."))
            for name in sorted(names):
                file = Path(directory) / name
                if name.startswith(".") or file.is_symlink() or document_kind(file) is None:
                    continue
                yield path, file, file.relative_to(path).as_posix()


def _read_file(path: Path, source: str) -> bytes:
    try:
        size = path.stat().st_size
        if size > _MAX_FILE_BYTES:
            raise DocumentReadError(
                f"{source}: {size // (1024 * 1024)} MB is too large for a document (at most "
                f"{_MAX_FILE_BYTES // (1024 * 1024)} MB); split it.",
                path=source,
            )
        return path.read_bytes()
    except OSError as exc:
        raise DocumentReadError(
            f"{source}: cannot be read ({exc.strerror}); check its permissions.", path=source
        ) from exc

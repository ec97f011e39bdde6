"""Collections in Qdrant: embedded under the workspace root, or a server when QDRANT_URL is set.

A collection holds, per chunk, a dense vector ("dense", cosine), a lexical sparse vector
("lexical", Qdrant's IDF modifier) and the chunk's payload; which file a chunk came from and that
file's hash are in the payload too, so incremental ingest needs no state outside Qdrant.

The same client calls serve both, with one exception: embedded Qdrant scores sparse vectors in a
Python loop over every point, so in embedded mode the lexical leg runs on an in-memory index of
the same vectors (sparse_index.py) and the two legs are fused by qdrant-client's own RRF function;
a server does both in one query_points call with two prefetches. Every Qdrant exception is
translated here into KnowledgeBaseError or NotFound.
"""

from __future__ import annotations

import re
import threading
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from qdrant_client import QdrantClient, models
from qdrant_client.http.exceptions import ApiException
from qdrant_client.hybrid.fusion import reciprocal_rank_fusion

from bunseki.errors import InputError, KnowledgeBaseError, KnowledgeBaseLocked, NotFound
from bunseki.rag.lexical import SparseVector
from bunseki.rag.models import SearchMode
from bunseki.rag.sparse_index import SparseIndex

DENSE: Final = "dense"
LEXICAL: Final = "lexical"
_POINT_NAMESPACE: Final = uuid.UUID("6b1c1f0e-5d0c-4f5e-9a36-3b8f7a0d2c11")
# Collection names end up as directory names in embedded mode and in URLs on a server.
_COLLECTION_NAME: Final = re.compile(r"^[^\s/\\:*?\"<>|\x00-\x1f.][^\s/\\:*?\"<>|\x00-\x1f]{0,63}$")
_SCROLL_PAGE: Final = 1024
_UPSERT_BATCH: Final = 128
# Each leg of a hybrid query offers this many candidates (at least) to the fusion.
_PREFETCH_MIN: Final = 20
# RRF weights: dense first, it is the stronger leg on paraphrases and across languages;
# the lexical leg adds exact identifiers, numbers and rare names.
_RRF_WEIGHTS: Final = (2.0, 1.0)
_MANIFEST_FIELDS: Final = ["source", "file_hash", "root", "pipeline"]


@dataclass(frozen=True)
class FileRecord:
    """What a collection remembers about an ingested file."""

    file_hash: str
    root: str
    pipeline: str


@dataclass(frozen=True)
class StoredChunk:
    """A chunk to write: its payload and both vectors."""

    chunk_id: str
    payload: dict[str, Any]
    dense: Sequence[float]
    lexical: SparseVector


def validate_collection_name(name: str) -> str:
    """``name`` if it can name a collection, else InputError saying what can."""
    if not _COLLECTION_NAME.match(name):
        raise InputError(
            f"'{name}' cannot name a collection: use 1-64 characters without spaces, '/', '\\', ':', '*', '?', "
            "quotes, '<', '>' or '|', not starting with '.' (e.g. 'manuals' or '社内FAQ')."
        )
    return name


class VectorStore:
    """A Qdrant client and where it points (``location`` is shown to people, e.g. in collection lists)."""

    def __init__(self, client: QdrantClient, location: str, *, server: bool) -> None:
        self.client = client
        self.location = location
        self._server = server
        # Embedded mode: each collection's lexical index, built on first search after a write.
        self._lexical_indexes: dict[str, SparseIndex] = {}
        self._indexes_lock = threading.Lock()

    @classmethod
    def open(cls, *, url: str | None, api_key: str | None, path: Path) -> VectorStore:
        """A server store when ``url`` is given, else the embedded store at ``path`` (created if missing)."""
        if url:
            with _translated(url):
                # The client's own version check runs in a background thread that only warns, at any
                # time; an unreachable or incompatible server shows on the first call instead.
                client = QdrantClient(url=url, api_key=api_key, check_compatibility=False)
            return cls(client, url, server=True)
        try:
            path.mkdir(parents=True, exist_ok=True)
            client = QdrantClient(path=str(path))
        except OSError as exc:
            raise KnowledgeBaseError(
                f"the knowledge base folder {path} cannot be used ({exc.strerror or exc}); check the workspace "
                "root's permissions and free disk space, or set BUNSEKI_WORKSPACE_ROOT."
            ) from exc
        except RuntimeError as exc:  # embedded Qdrant takes an exclusive lock on its folder
            raise KnowledgeBaseLocked(
                f"the knowledge base at {path} is open in another Bunseki process (for example `bunseki serve` "
                "or the UI); stop that one and try again, or run a Qdrant server and set QDRANT_URL so that "
                "several processes can share it. / ナレッジベースは別の Bunseki プロセスが使用中です。そのプロセスを"
                "止めるか、Qdrant サーバーを立てて QDRANT_URL を設定してください。"
            ) from exc
        return cls(client, str(path), server=False)

    def close(self) -> None:
        with _translated(self.location):
            self.client.close()

    # --- collections ---

    def names(self) -> list[str]:
        with _translated(self.location):
            return sorted(collection.name for collection in self.client.get_collections().collections)

    def exists(self, name: str) -> bool:
        with _translated(self.location):
            return self.client.collection_exists(name)

    def create(self, name: str, *, dimension: int, metadata: dict[str, str]) -> None:
        self._forget_index(name)
        with _translated(self.location):
            self.client.create_collection(
                name,
                vectors_config={DENSE: models.VectorParams(size=dimension, distance=models.Distance.COSINE)},
                sparse_vectors_config={LEXICAL: models.SparseVectorParams(modifier=models.Modifier.IDF)},
                metadata=dict(metadata),
            )
            if self._server:  # payload indexes do nothing in embedded mode (and it warns)
                for field in ("source", "root"):
                    self.client.create_payload_index(name, field, models.PayloadSchemaType.KEYWORD)

    def delete(self, name: str) -> None:
        self._require(name)
        self._forget_index(name)
        with _translated(self.location):
            self.client.delete_collection(name)

    def metadata(self, name: str) -> dict[str, Any]:
        self._require(name)
        with _translated(self.location):
            return dict(self.client.get_collection(name).config.metadata or {})

    def count(self, name: str) -> int:
        with _translated(self.location):
            return self.client.count(name, exact=True).count

    # --- chunks ---

    def manifest(self, name: str) -> dict[str, FileRecord]:
        """The ingested files of a collection by source."""
        files: dict[str, FileRecord] = {}
        offset: models.ExtendedPointId | None = None
        with _translated(self.location):
            while True:
                points, offset = self.client.scroll(
                    name, limit=_SCROLL_PAGE, offset=offset, with_payload=_MANIFEST_FIELDS, with_vectors=False
                )
                for point in points:
                    payload = point.payload or {}
                    files[str(payload.get("source"))] = FileRecord(
                        file_hash=str(payload.get("file_hash", "")),
                        root=str(payload.get("root", "")),
                        pipeline=str(payload.get("pipeline", "")),
                    )
                if offset is None:
                    return files

    def payloads(self, name: str, fields: Sequence[str], *, kind: str | None = None) -> Iterator[dict[str, Any]]:
        """The chosen payload fields of every chunk of a collection (only chunks of ``kind``, if given)."""
        self._require(name)
        wanted = (
            models.Filter(must=[models.FieldCondition(key="kind", match=models.MatchValue(value=kind))])
            if kind is not None
            else None
        )
        offset: models.ExtendedPointId | None = None
        while True:
            with _translated(self.location):
                points, offset = self.client.scroll(
                    name,
                    scroll_filter=wanted,
                    limit=_SCROLL_PAGE,
                    offset=offset,
                    with_payload=list(fields),
                    with_vectors=False,
                )
            for point in points:
                yield dict(point.payload or {})
            if offset is None:
                return

    def delete_source(self, name: str, source: str) -> None:
        """Remove every chunk of one file."""
        selector = models.FilterSelector(
            filter=models.Filter(must=[models.FieldCondition(key="source", match=models.MatchValue(value=source))])
        )
        self._forget_index(name)
        with _translated(self.location):
            self.client.delete(name, points_selector=selector, wait=True)

    def upsert(self, name: str, chunks: Sequence[StoredChunk]) -> None:
        points = [
            models.PointStruct(
                id=str(uuid.uuid5(_POINT_NAMESPACE, chunk.chunk_id)),
                vector={
                    DENSE: list(chunk.dense),
                    LEXICAL: models.SparseVector(
                        indices=list(chunk.lexical.indices), values=list(chunk.lexical.values)
                    ),
                },
                payload=chunk.payload,
            )
            for chunk in chunks
        ]
        self._forget_index(name)
        with _translated(self.location):
            for start in range(0, len(points), _UPSERT_BATCH):
                self.client.upsert(name, points=points[start : start + _UPSERT_BATCH], wait=True)

    def query(
        self, name: str, *, dense: Sequence[float], lexical: SparseVector, mode: SearchMode, limit: int
    ) -> list[models.ScoredPoint]:
        """The best ``limit`` chunks: dense, lexical, or both legs fused by weighted RRF."""
        self._require(name)
        if mode == "sparse" and not lexical:
            return []
        if mode == "dense" or (mode == "hybrid" and not lexical):
            with _translated(self.location):
                response = self.client.query_points(
                    name, query=list(dense), using=DENSE, limit=limit, with_payload=True
                )
            return list(response.points)
        if not self._server:
            return self._query_embedded(name, dense=dense, lexical=lexical, mode=mode, limit=limit)
        sparse_query = models.SparseVector(indices=list(lexical.indices), values=list(lexical.values))
        with _translated(self.location):
            if mode == "sparse":
                response = self.client.query_points(
                    name, query=sparse_query, using=LEXICAL, limit=limit, with_payload=True
                )
            else:
                candidates = _candidates(limit)
                response = self.client.query_points(
                    name,
                    prefetch=[
                        models.Prefetch(query=list(dense), using=DENSE, limit=candidates),
                        models.Prefetch(query=sparse_query, using=LEXICAL, limit=candidates),
                    ],
                    query=models.RrfQuery(rrf=models.Rrf(weights=list(_RRF_WEIGHTS))),
                    limit=limit,
                    with_payload=True,
                )
        return list(response.points)

    def _query_embedded(
        self, name: str, *, dense: Sequence[float], lexical: SparseVector, mode: SearchMode, limit: int
    ) -> list[models.ScoredPoint]:
        """The sparse or hybrid query of embedded mode: lexical leg in memory, RRF as Qdrant does it."""
        index = self._lexical_index(name)
        if mode == "sparse":
            ranked = [_scored(point_id, score) for point_id, score in index.top(lexical, limit)]
        else:
            candidates = _candidates(limit)
            with _translated(self.location):
                dense_leg = self.client.query_points(name, query=list(dense), using=DENSE, limit=candidates).points
            lexical_leg = [_scored(point_id, score) for point_id, score in index.top(lexical, candidates)]
            ranked = reciprocal_rank_fusion([list(dense_leg), lexical_leg], limit=limit, weights=list(_RRF_WEIGHTS))
        with _translated(self.location):
            records = {record.id: record for record in self.client.retrieve(name, [p.id for p in ranked])}
        return [
            models.ScoredPoint(id=point.id, version=0, score=point.score, payload=records[point.id].payload)
            for point in ranked
            if point.id in records
        ]

    def _lexical_index(self, name: str) -> SparseIndex:
        with self._indexes_lock:
            index = self._lexical_indexes.get(name)
            if index is None:
                index = self._lexical_indexes[name] = self._build_index(name)
            return index

    def _build_index(self, name: str) -> SparseIndex:
        ids: list[str] = []
        vectors: list[SparseVector] = []
        offset: models.ExtendedPointId | None = None
        with _translated(self.location):
            while True:
                points, offset = self.client.scroll(
                    name, limit=_SCROLL_PAGE, offset=offset, with_payload=False, with_vectors=[LEXICAL]
                )
                for point in points:
                    vector = (point.vector or {}).get(LEXICAL) if isinstance(point.vector, dict) else None
                    if isinstance(vector, models.SparseVector):
                        ids.append(str(point.id))
                        vectors.append(SparseVector(indices=tuple(vector.indices), values=tuple(vector.values)))
                if offset is None:
                    return SparseIndex(ids, vectors)

    def _forget_index(self, name: str) -> None:
        with self._indexes_lock:
            self._lexical_indexes.pop(name, None)

    def _require(self, name: str) -> None:
        if not self.exists(name):
            raise NotFound(
                f"there is no collection '{name}'; the collections are: {', '.join(self.names()) or 'none'}."
            )


def _candidates(limit: int) -> int:
    """How many candidates each leg of a hybrid query offers to the fusion."""
    return max(_PREFETCH_MIN, 4 * limit)


def _scored(point_id: str, score: float) -> models.ScoredPoint:
    return models.ScoredPoint(id=point_id, version=0, score=score)


@contextmanager
def _translated(location: str) -> Iterator[None]:
    """Qdrant's and the transport's exceptions, as KnowledgeBaseError naming the store."""
    try:
        yield
    except ApiException as exc:
        raise KnowledgeBaseError(
            f"Qdrant ({location}) failed: {exc}. Check that the server is running and QDRANT_URL and "
            "QDRANT_API_KEY are right."
        ) from exc
    except (OSError, ValueError, RuntimeError) as exc:
        # Embedded mode raises ValueError and RuntimeError; OSError is its disk. (Transport errors are ApiException.)
        raise KnowledgeBaseError(f"Qdrant ({location}) failed: {type(exc).__name__}: {exc}.") from exc

"""Collections in Qdrant: embedded under the workspace root, or a server when QDRANT_URL is set.

The same client calls serve both. Every Qdrant exception is translated here into KnowledgeBaseError
or NotFound. A collection holds, per chunk, a dense vector ("dense", cosine) and a lexical sparse
vector ("lexical", Qdrant's IDF modifier) plus the chunk's payload; which file a chunk came from and
the hash of that file are in the payload too, so incremental ingest needs no state outside Qdrant.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from qdrant_client import QdrantClient, models
from qdrant_client.http.exceptions import ApiException

from bunseki.errors import InputError, KnowledgeBaseError, NotFound
from bunseki.rag.lexical import SparseVector
from bunseki.rag.models import SearchMode

DENSE: Final = "dense"
LEXICAL: Final = "lexical"
_POINT_NAMESPACE: Final = uuid.UUID("6b1c1f0e-5d0c-4f5e-9a36-3b8f7a0d2c11")
# Collection names end up as directory names in embedded mode and in URLs on a server.
_COLLECTION_NAME: Final = re.compile(r"^[^\s/\\:*?\"<>|\x00-\x1f.][^\s/\\:*?\"<>|\x00-\x1f]{0,63}$")
_SCROLL_PAGE: Final = 1024
_UPSERT_BATCH: Final = 128
# Each leg of a hybrid query offers this many candidates (at least) to the fusion.
_PREFETCH_MIN: Final = 20
# RRF weights: dense first, it is the stronger leg on paraphrases and across languages
# (research/rag.md); the lexical leg adds exact identifiers, numbers and rare names.
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

    @classmethod
    def open(cls, *, url: str | None, api_key: str | None, path: Path) -> VectorStore:
        """A server store when ``url`` is given, else the embedded store at ``path`` (created if missing)."""
        if url:
            with _translated(url):
                # The client's own version check runs in a background thread that only warns, at any
                # time; an unreachable or incompatible server shows on the first call instead.
                client = QdrantClient(url=url, api_key=api_key, check_compatibility=False)
            return cls(client, url, server=True)
        path.mkdir(parents=True, exist_ok=True)
        try:
            client = QdrantClient(path=str(path))
        except RuntimeError as exc:  # embedded Qdrant takes an exclusive lock on its folder
            raise KnowledgeBaseError(
                f"the knowledge base at {path} is open in another Bunseki process; close that one, or run a "
                "Qdrant server and set QDRANT_URL so that several processes can share it."
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

    def delete_source(self, name: str, source: str) -> None:
        """Remove every chunk of one file."""
        selector = models.FilterSelector(
            filter=models.Filter(must=[models.FieldCondition(key="source", match=models.MatchValue(value=source))])
        )
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
        with _translated(self.location):
            for start in range(0, len(points), _UPSERT_BATCH):
                self.client.upsert(name, points=points[start : start + _UPSERT_BATCH], wait=True)

    def query(
        self, name: str, *, dense: Sequence[float], lexical: SparseVector, mode: SearchMode, limit: int
    ) -> list[models.ScoredPoint]:
        """The best ``limit`` chunks: dense, lexical, or both legs fused by weighted RRF in Qdrant."""
        self._require(name)
        sparse_query = models.SparseVector(indices=list(lexical.indices), values=list(lexical.values))
        with _translated(self.location):
            if mode == "dense" or (mode == "hybrid" and not lexical):
                response = self.client.query_points(
                    name, query=list(dense), using=DENSE, limit=limit, with_payload=True
                )
            elif mode == "sparse":
                if not lexical:
                    return []
                response = self.client.query_points(
                    name, query=sparse_query, using=LEXICAL, limit=limit, with_payload=True
                )
            else:
                candidates = max(_PREFETCH_MIN, 4 * limit)
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

    def _require(self, name: str) -> None:
        if not self.exists(name):
            raise NotFound(
                f"there is no collection '{name}'; the collections are: {', '.join(self.names()) or 'none'}."
            )


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

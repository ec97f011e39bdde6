"""Knowledge-base fixtures: the corpus, a fast deterministic embedder, and a real one shared per session."""

from __future__ import annotations

import hashlib
import shutil
from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np
import pytest
from qdrant_client import QdrantClient

from bunseki.rag import E5Embedder, EmbeddingCache, KnowledgeBase, Lexicon
from bunseki.rag.embedding import Vectors
from bunseki.rag.store import VectorStore
from tests.rag.corpus import write_corpus


class BigramEmbedder:
    """A fake embedding model: character bigrams hashed into 64 buckets, normalised.

    Deterministic and instant; texts that share wording land close together. It counts the texts
    it embedded so that tests can tell a cached or skipped file from a re-embedded one.
    """

    model_id = "fake-bigram-64"
    dimension = 64

    def __init__(self) -> None:
        self.embedded: list[str] = []

    def passages(self, texts: Sequence[str]) -> Vectors:
        self.embedded.extend(texts)
        return np.vstack([self._vector(text) for text in texts]) if texts else np.zeros((0, 64), np.float32)

    def query(self, text: str) -> Vectors:
        return self._vector(text)

    def _vector(self, text: str) -> Vectors:
        vector = np.zeros(self.dimension, dtype=np.float32)
        for start in range(len(text) - 1):
            digest = hashlib.blake2b(text[start : start + 2].encode(), digest_size=2).digest()
            vector[int.from_bytes(digest) % self.dimension] += 1.0
        norm = float(np.linalg.norm(vector))
        return vector / norm if norm else vector + 1.0 / np.sqrt(self.dimension)


@pytest.fixture(scope="session")
def lexicon() -> Lexicon:
    return Lexicon()


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    """A fresh copy of the corpus that the test may change."""
    return write_corpus(tmp_path / "corpus")


@pytest.fixture
def fake_embedder() -> BigramEmbedder:
    return BigramEmbedder()


@pytest.fixture
def memory_kb(fake_embedder: BigramEmbedder, lexicon: Lexicon, tmp_path: Path) -> Iterator[KnowledgeBase]:
    """A knowledge base over in-memory Qdrant with the fake embedder and a cache of its own."""
    store = VectorStore(QdrantClient(":memory:"), ":memory:", server=False)
    kb = KnowledgeBase(store, embedder=fake_embedder, lexicon=lexicon, cache=EmbeddingCache(tmp_path / "cache.sqlite"))
    yield kb
    kb.close()


@pytest.fixture(scope="session")
def e5() -> E5Embedder:
    return E5Embedder()


@pytest.fixture(scope="session")
def warm_cache(tmp_path_factory: pytest.TempPathFactory, e5: E5Embedder, lexicon: Lexicon) -> Path:
    """An embedding cache holding the corpus's e5 vectors, filled once per session (embedding is slow)."""
    folder = tmp_path_factory.mktemp("warm")
    cache_path = folder / "cache.sqlite"
    store = VectorStore(QdrantClient(":memory:"), ":memory:", server=False)
    with KnowledgeBase(store, embedder=e5, lexicon=lexicon, cache=EmbeddingCache(cache_path)) as kb:
        kb.ingest([write_corpus(folder / "corpus")], "warm")
    return cache_path


@pytest.fixture(scope="module")
def e5_kb(
    tmp_path_factory: pytest.TempPathFactory, warm_cache: Path, e5: E5Embedder, lexicon: Lexicon
) -> Iterator[KnowledgeBase]:
    """The corpus ingested with the real model into collection 'docs' (read-only for the tests)."""
    folder = tmp_path_factory.mktemp("e5kb")
    shutil.copy(warm_cache, folder / "cache.sqlite")
    store = VectorStore(QdrantClient(":memory:"), ":memory:", server=False)
    kb = KnowledgeBase(store, embedder=e5, lexicon=lexicon, cache=EmbeddingCache(folder / "cache.sqlite"))
    report = kb.ingest([write_corpus(folder / "corpus")], "docs")
    assert report.embedded == 0, "the warm cache should have held every chunk"
    yield kb
    kb.close()

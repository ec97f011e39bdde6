"""A small in-memory keyword index of a case's specs and code, cached as JSON by content hash."""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path

WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]+|[0-9]+(?:\.[0-9]+)?|[\u3040-\u30ff\u4e00-\u9fff]{2,}")


@dataclass(frozen=True)
class Passage:
    segment: str  # specs, codes, env_specs, env_codes
    source: str
    text: str


def content_hash(files: dict[str, list[Path]]) -> str:
    digest = hashlib.sha256()
    for segment in sorted(files):
        for path in files[segment]:
            digest.update(f"{segment}:{path.name}\n".encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def chunk(text: str, *, limit: int = 1200) -> list[str]:
    """Split on blank lines (Markdown paragraphs, Python blocks) and pack up to ``limit`` characters."""
    pieces, current = [], ""
    for block in re.split(r"\n\s*\n", text):
        if current and len(current) + len(block) > limit:
            pieces.append(current)
            current = ""
        current = f"{current}\n\n{block}" if current else block
    if current.strip():
        pieces.append(current)
    return pieces


class KeywordIndex:
    def __init__(self, passages: list[Passage]) -> None:
        self.passages = passages
        self._terms = [set(WORD.findall(p.text.lower())) for p in passages]

    @classmethod
    def build(cls, files: dict[str, list[Path]], cache_dir: Path) -> tuple[KeywordIndex, str, bool]:
        """The index and its hash; ``True`` when it came from the cache."""
        key = content_hash(files)
        cached = cache_dir / f"{key}.json"
        if cached.is_file():
            rows = json.loads(cached.read_text(encoding="utf-8"))
            return cls([Passage(**row) for row in rows]), key, True
        passages = [
            Passage(segment, path.name, text)
            for segment, paths in files.items()
            for path in paths
            for text in chunk(path.read_text(encoding="utf-8", errors="replace"))
        ]
        cache_dir.mkdir(parents=True, exist_ok=True)
        cached.write_text(json.dumps([p.__dict__ for p in passages], ensure_ascii=False), encoding="utf-8")
        return cls(passages), key, False

    def search(self, query: str, k: int = 4) -> list[Passage]:
        words = set(WORD.findall(query.lower()))
        scored = sorted(((len(words & terms), i) for i, terms in enumerate(self._terms) if words & terms), reverse=True)
        return [self.passages[i] for _, i in scored[:k]]

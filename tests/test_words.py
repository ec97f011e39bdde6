"""Docs, docstrings and comments say what the code does, not which issue or design document asked for it.

A reader has the repository, not the issue tracker or the documents the project started from, so
"issue 13", "(#13)", "seed 001's overview" or "REQ-DONE-001" tell them nothing. A random seed is fine:
only a seed followed by a three-digit document number counts.
"""

from __future__ import annotations

import re
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[1]
FILES = ("README.md", "Makefile", "pyproject.toml")
FOLDERS = ("src/bunseki", "tests", "benchmarks", "scripts", "deploy")
SUFFIXES = {".py", ".md", ".toml", ".yml", ".yaml", ".json", ".sh", ".txt", ".ini", ".cfg", ".mako", ""}
REFERENCE = re.compile(
    r"\bseeds?[ _/-]?0\d\d\b"  # seed 000, Seed 001's, seed-002, seeds/003
    r"|\bissues? ?#?\d+\b"  # issue 13, issue #13
    r"|\(#\d+\)"  # (#13)
    r"|\bREQ-[A-Z]+-\d+"  # requirement ids of those documents
    r"|シード ?0\d\d|課題 ?#?\d+",
    re.IGNORECASE,
)


def texts() -> list[Path]:
    found = [REPOSITORY / name for name in FILES]
    for folder in FOLDERS:
        for path in sorted((REPOSITORY / folder).rglob("*")):
            if path.is_file() and path.suffix in SUFFIXES and "__pycache__" not in path.parts:
                found.append(path)
    return [path for path in found if path.exists() and path != Path(__file__).resolve()]


def test_no_issue_or_seed_numbers() -> None:
    hits = []
    for path in texts():
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:  # a binary sample: nothing a reader reads as prose
            continue
        for number, line in enumerate(text.splitlines(), start=1):
            if match := REFERENCE.search(line):
                hits.append(f"{path.relative_to(REPOSITORY)}:{number}: {match.group()!r} in {line.strip()[:100]}")
    assert not hits, "say what the code does instead of citing an issue or a seed document:\n" + "\n".join(hits)


def test_the_pattern_catches_references_and_leaves_random_seeds() -> None:
    for cited in ("Seed 001's overview", "(seed 003)", "seed-000", "seeds/004", "(issue 13)", "issue #7", "(#13)"):
        assert REFERENCE.search(cited), cited
    for legitimate in ("seed: int = 0", "default_rng(seed)", "SEED = 20240401", "a fixed seed", "setup.md#2"):
        assert not REFERENCE.search(legitimate), legitimate

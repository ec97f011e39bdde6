"""Check a question file against the corpus: every expected span is in a listed document.

    python benchmarks/docs/check.py CORPUS_DIR questions_a.py [questions_b.py ...]

A span counts as found when it appears in the document's text (tags removed, entities decoded,
NFKC, spaces and case ignored) of at least one listed source. Prints the counts the set must meet.
"""

from __future__ import annotations

import html
import importlib.util
import re
import sys
from collections import Counter
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parents[n]) for n in (1, 2)]  # benchmarks/ (docs) and the root

from docs.questions import Question, normalized  # noqa: E402


def document_text(path: Path) -> str:
    raw = path.read_text(encoding="utf-8", errors="replace")
    if path.suffix in (".html", ".htm"):
        raw = re.sub(r"(?is)<(script|style)\b.*?</\1>", " ", raw)
        raw = html.unescape(re.sub(r"(?s)<[^>]+>", " ", raw))
    return normalized(raw)


def load(path: Path) -> list[Question]:
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return list(module.QUESTIONS)


def check(corpus: Path, questions: list[Question]) -> list[str]:
    problems = []
    texts: dict[str, str] = {}
    seen: set[str] = set()
    for question in questions:
        if question.id in seen:
            problems.append(f"{question.id}: the id is used twice")
        seen.add(question.id)
        if bool(question.sources) != bool(question.expected) or (question.kind == "none") != (not question.sources):
            problems.append(f"{question.id}: an unanswerable question has kind none, no sources and no spans")
        for source in question.sources:
            if not (corpus / source).is_file():
                problems.append(f"{question.id}: no document {source}")
            elif source not in texts:
                texts[source] = document_text(corpus / source)
        for span in question.expected:
            if not any(normalized(span) in texts.get(source, "") for source in question.sources):
                problems.append(f"{question.id}: {span!r} is in none of {question.sources}")
    return problems


def main() -> int:
    corpus, files = Path(sys.argv[1]), [Path(name) for name in sys.argv[2:]]
    questions = [question for path in files for question in load(path)]
    problems = check(corpus, questions)
    print("\n".join(problems) or "every span found")
    print(f"{len(questions)} questions")
    for label, counts in (
        ("asked in", Counter(q.asked_in for q in questions)),
        ("direction", Counter(q.direction for q in questions)),
        ("kind", Counter(q.kind for q in questions)),
        ("half", Counter(q.half for q in questions)),
    ):
        print(f"{label}: " + ", ".join(f"{key} {value}" for key, value in sorted(counts.items())))
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())

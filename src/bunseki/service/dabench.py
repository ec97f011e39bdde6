"""InfiAgent-DABench (closed form): run the analyst on its questions and score it officially.

Scoring follows the benchmark's own rules: answers are ``@name[value]`` pairs; a value is
correct when it equals the label as a string or as a number within 1e-6; a question is correct
when all its labelled sub-answers are. Accuracy by question is over every question of the set:
an unanswered question counts as wrong.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bunseki.service.batch import BatchItem, run_batch
from bunseki.settings import Settings

ANSWER = re.compile(r"@(\w+)\[(.*?)\]")
LEVELS = ("easy", "medium", "hard")


@dataclass(frozen=True)
class Question:
    id: int
    question: str
    constraints: str
    format: str
    file_name: str
    level: str
    concepts: tuple[str, ...]

    @property
    def prompt(self) -> str:
        """The text the analyst receives: the question, its constraints and the answer format."""
        return f"{self.question}\nConstraints: {self.constraints}\nFormat: {self.format}"


@dataclass
class Scores:
    questions: int = 0
    correct: int = 0
    sub_questions: int = 0
    sub_correct: int = 0
    by_level: dict[str, list[int]] = field(default_factory=lambda: {level: [0, 0] for level in LEVELS})
    by_concept: dict[str, list[int]] = field(default_factory=dict)

    @property
    def accuracy(self) -> float:
        return self.correct / self.questions if self.questions else 0.0

    @property
    def sub_accuracy(self) -> float:
        return self.sub_correct / self.sub_questions if self.sub_questions else 0.0


def load_questions(directory: Path) -> list[Question]:
    questions = []
    with (directory / "da-dev-questions.jsonl").open(encoding="utf-8") as handle:
        for line in handle:
            raw = json.loads(line)
            questions.append(
                Question(
                    id=int(raw["id"]),
                    question=raw["question"],
                    constraints=raw["constraints"],
                    format=raw["format"],
                    file_name=raw["file_name"],
                    level=raw["level"],
                    concepts=tuple(raw.get("concepts", [])),
                )
            )
    return questions


def load_labels(directory: Path) -> dict[int, dict[str, str]]:
    labels = {}
    with (directory / "da-dev-labels.jsonl").open(encoding="utf-8") as handle:
        for line in handle:
            raw = json.loads(line)
            labels[int(raw["id"])] = dict(raw["common_answers"])
    return labels


def extract(response: str) -> dict[str, str]:
    """The ``@name[value]`` pairs of a response (the first value wins for a repeated name)."""
    found: dict[str, str] = {}
    for name, value in ANSWER.findall(response or ""):
        found.setdefault(name, value)
    return found


def is_equal(response: str | None, label: str) -> bool:
    """The benchmark's rule: equal strings, or numbers within 1e-6."""
    if response == label:
        return True
    try:
        return abs(float(response) - float(label)) < 1e-6  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return False


def score(questions: list[Question], labels: dict[int, dict[str, str]], responses: dict[int, str]) -> Scores:
    scores = Scores()
    for question in questions:
        expected = labels[question.id]
        answered = extract(responses.get(question.id, ""))
        verdicts = [is_equal(answered.get(name), value) for name, value in expected.items()]
        right = all(verdicts)
        scores.questions += 1
        scores.correct += right
        scores.sub_questions += len(verdicts)
        scores.sub_correct += sum(verdicts)
        level = scores.by_level.setdefault(question.level, [0, 0])
        level[0] += right
        level[1] += 1
        for concept in question.concepts:
            tally = scores.by_concept.setdefault(concept, [0, 0])
            tally[0] += right
            tally[1] += 1
    return scores


def run(
    directory: Path,
    *,
    settings: Settings,
    model: str | None = None,
    ids: set[int] | None = None,
    limit: int | None = None,
    on_progress: Callable[[int, int, BatchItem, dict[str, Any]], None] | None = None,
) -> tuple[list[Question], dict[int, str], list[dict[str, Any]]]:
    """Answer the questions (all, or ``ids``, or the first ``limit``); returns them with responses."""
    questions = [q for q in load_questions(directory) if ids is None or q.id in ids][:limit]
    items = [BatchItem(id=str(q.id), file=q.file_name, question=q.prompt) for q in questions]
    results = list(
        run_batch(items, data_dir=directory / "tables", settings=settings, model=model, on_progress=on_progress)
    )
    responses = {int(result["id"]): result.get("answer") or "" for result in results}
    return questions, responses, results


def table(scores: Scores) -> str:
    """The scores as a Markdown table: by question first, then by sub-question and by level."""
    lines = [
        "| measure | correct | total | accuracy |",
        "|---|---:|---:|---:|",
        f"| by question (all {scores.questions}) | {scores.correct} | {scores.questions} | {scores.accuracy:.2%} |",
        f"| by sub-question | {scores.sub_correct} | {scores.sub_questions} | {scores.sub_accuracy:.2%} |",
    ]
    for level, (right, total) in scores.by_level.items():
        if total:
            lines.append(f"| level: {level} | {right} | {total} | {right / total:.2%} |")
    for concept, (right, total) in sorted(scores.by_concept.items()):
        lines.append(f"| concept: {concept} | {right} | {total} | {right / total:.2%} |")
    return "\n".join(lines)

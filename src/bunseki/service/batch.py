"""Many questions over many files: one process, one warm sandbox per file, no question stops the rest."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bunseki.errors import BunsekiError
from bunseki.service.analysis import AnalysisSession
from bunseki.settings import Settings


@dataclass(frozen=True)
class BatchItem:
    """One input line: ``{"id", "file", "question"}`` with ``file`` relative to the data directory."""

    id: str
    file: str
    question: str

    @classmethod
    def parse(cls, line: str, number: int) -> BatchItem:
        try:
            raw = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ValueError(f"line {number} is not JSON: {exc.msg}") from exc
        if not isinstance(raw, dict) or not all(
            isinstance(raw.get(key), str | int) for key in ("id", "file", "question")
        ):
            raise ValueError(f'line {number} needs "id", "file" and "question"')
        return cls(id=str(raw["id"]), file=str(raw["file"]), question=str(raw["question"]))


def read_items(lines: Iterable[str]) -> list[BatchItem]:
    """Parse a JSONL batch; blank lines are skipped, a bad line is an error naming its number."""
    return [BatchItem.parse(line, number) for number, line in enumerate(lines, 1) if line.strip()]


def run_batch(
    items: list[BatchItem],
    *,
    data_dir: Path,
    settings: Settings,
    model: str | None = None,
    on_progress: Callable[[int, int, BatchItem, dict[str, Any]], None] | None = None,
) -> Iterator[dict[str, Any]]:
    """Answer every item; yields one result object (the CLI's JSON fields plus ``id``) per item.

    Items are answered file by file, so each file is loaded and its sandbox started once.
    """
    by_file: dict[str, list[BatchItem]] = {}
    for item in items:
        by_file.setdefault(item.file, []).append(item)
    done = 0
    for file, group in by_file.items():
        session, problem = _open(data_dir, file, settings, model)
        try:
            for item in group:
                began = time.monotonic()
                result = _answer(session, item) if session else _failed(item, problem or "the file could not be opened")
                result["duration_s"] = round(time.monotonic() - began, 3)
                done += 1
                if on_progress:
                    on_progress(done, len(items), item, result)
                yield result
        finally:
            if session:
                session.close()


def _open(
    data_dir: Path, file: str, settings: Settings, model: str | None
) -> tuple[AnalysisSession | None, str | None]:
    path = (data_dir / file).resolve()
    if not path.is_relative_to(data_dir.resolve()):
        return None, f"{file} is outside the data directory"
    try:
        return AnalysisSession(path, settings=settings, model=model), None
    except (BunsekiError, OSError) as exc:
        return None, f"{type(exc).__name__}: {exc}"


def _answer(session: AnalysisSession, item: BatchItem) -> dict[str, Any]:
    try:
        session.restore_data()
        session.messages = []  # questions of a batch are independent
        stem = "report_" + re.sub(r"[^\w-]+", "_", item.id).strip("_")[:60]
        return {"id": item.id, **session.ask(item.question, report_stem=stem or "report").to_json()}
    except Exception as exc:  # one bad question must not stop the batch; it is reported on its line
        return _failed(item, f"{type(exc).__name__}: {exc}", str(session.workspace))


def _failed(item: BatchItem, problem: str, workspace: str | None = None) -> dict[str, Any]:
    return {
        "id": item.id,
        "status": "error",
        "answer": None,
        "question": None,
        "report_markdown": None,
        "report_path": None,
        "workspace_dir": workspace,
        "artifacts": [],
        "executions": [],
        "loop_count": 0,
        "error": problem,
    }

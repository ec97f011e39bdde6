"""How well the offline analyst answers everyday questions: its own evaluation set, and DABench.

    python benchmarks/offline_questions.py [--verbose] [--only sales,bills] [--no-dabench]

Eleven tables are generated from a fixed seed (``questions/tables.py``) and written to disk as
such files arrive; each question (``questions/<table>.py``) has a category and an expected
answer computed here by pandas. Every question is one turn through the same service path as
``bunseki analyze`` (one warm sandbox per table, the data restored and the history cleared
between questions); an answer counts only when it states the asked quantity in the asked form
(``questions/expect.py``). Printed: accuracy per category and in total next to the recorded
baseline (``questions/baseline.json``, written by ``--save-baseline``), then the DABench dev
set split in two: even ids (the half the brain may be tuned on) and odd ids (held out).
Target on the evaluation set: ≥ 90 % overall, no category below 80 %.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import shutil
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from bunseki.errors import SandboxError
from bunseki.service import dabench
from bunseki.service.analysis import AnalysisSession
from bunseki.settings import Settings
from questions.expect import Question, check
from questions.tables import TABLES

CATEGORIES = (
    "shape",
    "distinct",
    "filter",
    "subset_ranking",
    "two_part",
    "share",
    "growth",
    "trend",
    "outliers",
    "derived",
    "correlation",
    "top_n",
)
BASELINE = Path(__file__).parent / "questions" / "baseline.json"
DABENCH = Path(os.environ.get("BUNSEKI_DABENCH", "/work/shared/benchmarks/dabench"))
TARGET, FLOOR = 0.90, 0.80


def questions(only: set[str] | None = None) -> list[Question]:
    found = []
    for table in TABLES:
        if only and table not in only:
            continue
        module = importlib.import_module(f"questions.{table}")
        found += [Question(q.text, q.category, q.expect, table=table) for q in module.QUESTIONS]
    return found


def run_set(selected: list[Question], root: Path, *, verbose: bool) -> list[dict[str, Any]]:
    """Every question through the analyst; one session (and sandbox) per table."""
    results = []
    settings = Settings(workspace_root=root, model="offline")
    for table_name in dict.fromkeys(q.table for q in selected):
        table = TABLES[table_name]
        frame = table.frame()
        path = table.write(root)
        with AnalysisSession(path, settings=settings) as session:
            for question in (q for q in selected if q.table == table_name):
                expected = question.expect(frame)
                session.messages = []
                try:
                    _restore(session)
                    turn = session.ask(question.text)
                    answer = turn.answer or turn.question or turn.error or ""
                except Exception as exc:  # one broken turn is one wrong answer, not a stopped run
                    answer = f"{type(exc).__name__}: {exc}"
                right = check(expected, answer)
                results.append(
                    {
                        "table": table_name,
                        "category": question.category,
                        "question": question.text,
                        "expected": expected.shown(),
                        "form": expected.form,
                        "answer": answer,
                        "correct": right,
                    }
                )
                if verbose and not right:
                    print(
                        f"✗ [{question.category}] {table_name}: {question.text}\n"
                        f"    expected {expected.form} {expected.shown()}\n    got: {answer[:300]}"
                    )
    return results


def _restore(session: AnalysisSession) -> None:
    """The data back to the file's, once more if a loaded machine made the sandbox miss its deadline."""
    try:
        session.restore_data()
    except SandboxError:
        session.restore_data()


def tally(results: list[dict[str, Any]]) -> dict[str, list[int]]:
    right: Counter[str] = Counter()
    total: Counter[str] = Counter()
    for result in results:
        total[result["category"]] += 1
        right[result["category"]] += result["correct"]
    return {category: [right[category], total[category]] for category in CATEGORIES if total[category]}


def run_dabench(root: Path) -> dict[str, list[int]]:
    settings = Settings(workspace_root=root, model="offline")
    asked, responses, _ = dabench.run(DABENCH, settings=settings)
    labels = dabench.load_labels(DABENCH)
    halves = {}
    for half, parity in (("even", 0), ("odd", 1)):
        chosen = [q for q in asked if q.id % 2 == parity]
        scores = dabench.score(chosen, labels, responses)
        halves[half] = [scores.correct, scores.questions]
    return halves


def _pct(pair: list[int] | None) -> str:
    if not pair or not pair[1]:
        return "—"
    return f"{pair[0]:>3}/{pair[1]:<3} {pair[0] / pair[1]:6.1%}"


def report(now: dict[str, list[int]], baseline: dict[str, Any], halves: dict[str, list[int]] | None) -> None:
    before = baseline.get("categories", {})
    print(
        f"\nOffline analyst on its evaluation set ({sum(t for _, t in now.values())} questions, {len(TABLES)} tables)\n"
    )
    print(f"{'category':<16} {'baseline':>16} {'now':>16}")
    for category, pair in now.items():
        print(f"{category:<16} {_pct(before.get(category)):>16} {_pct(pair):>16}")
    total = [sum(r for r, _ in now.values()), sum(t for _, t in now.values())]
    old = [sum(r for r, _ in before.values()), sum(t for _, t in before.values())] if before else None
    print(f"{'total':<16} {_pct(old):>16} {_pct(total):>16}")
    worst = min(r / t for r, t in now.values())
    verdict = "PASS" if total[0] / total[1] >= TARGET and worst >= FLOOR else "MISS"
    print(
        f"{verdict}  total {total[0] / total[1]:.1%} (target ≥ {TARGET:.0%}), lowest category {worst:.1%} "
        f"(floor {FLOOR:.0%})"
    )
    if halves:
        old_halves = baseline.get("dabench", {})
        print("\nDABench dev (official scoring), split by id parity")
        print(f"{'half':<28} {'baseline':>16} {'now':>16}")
        print(f"{'even ids (tuning half)':<28} {_pct(old_halves.get('even')):>16} {_pct(halves['even']):>16}")
        print(f"{'odd ids (held-out half)':<28} {_pct(old_halves.get('odd')):>16} {_pct(halves['odd']):>16}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", help="comma-separated table names")
    parser.add_argument("--category", help="comma-separated categories")
    parser.add_argument("--verbose", action="store_true", help="print every missed question and its answer")
    parser.add_argument("--no-dabench", action="store_true", help="skip the DABench halves")
    parser.add_argument("--dabench-only", action="store_true", help="only the DABench halves")
    parser.add_argument("--save-baseline", action="store_true", help="record this run as the baseline")
    parser.add_argument("--output", type=Path, help="write every question's result as JSONL")
    args = parser.parse_args()
    selected = questions(set(args.only.split(",")) if args.only else None)
    if args.category:
        selected = [q for q in selected if q.category in args.category.split(",")]
    root = Path(tempfile.mkdtemp(prefix="bunseki-questions-"))
    root.chmod(0o711)
    began = time.perf_counter()
    try:
        results = [] if args.dabench_only else run_set(selected, root, verbose=args.verbose)
        halves = None
        if not args.no_dabench and (DABENCH / "da-dev-questions.jsonl").is_file():
            halves = run_dabench(root)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    now = tally(results)
    baseline = json.loads(BASELINE.read_text(encoding="utf-8")) if BASELINE.is_file() else {}
    if now:
        report(now, baseline, halves)
    elif halves:
        print(f"DABench dev: even ids {_pct(halves['even'])}, odd ids (held out) {_pct(halves['odd'])}")
    print(f"\n({time.perf_counter() - began:.0f} s)")
    if args.output:
        with args.output.open("w", encoding="utf-8") as handle:
            for result in results:
                handle.write(json.dumps(result, ensure_ascii=False) + "\n")
    if args.save_baseline:
        if args.only or args.category or args.dabench_only:
            print("not saving a baseline from a partial run", file=sys.stderr)
            return 1
        record = {"categories": now, "dabench": halves or baseline.get("dabench", {})}
        BASELINE.write_text(json.dumps(record, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())

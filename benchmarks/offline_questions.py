"""How well the offline analyst answers everyday questions: on public tables, its own set, DABench.

    python benchmarks/offline_questions.py [--verbose] [--only sales,bills] [--no-dabench] [--no-public]

Three sets, every question one turn through the same service path as ``bunseki analyze`` (one warm
sandbox per table, the data restored and the history cleared between questions):

- public tables nobody here made (``public/``: shipped in PyPI packages, some translated into
  Japanese), in three batches written by people who did not read the brain (the first has been
  tuned on since, the later ones on their tuning halves only; ``--batch``), each split by id into
  a tuning half (even) and a held-out half (odd);
- the own set: thirteen tables generated from a fixed seed (``questions/``), by category;
- the DABench dev set, split by id parity the same way.

Every question ends one of three ways: right (the answer states the asked quantity in the asked
form, ``questions/expect.py``), asked back (the analyst asked a question instead of answering), or
wrong (anything else: a confident answer to another question, an error, no answer). Printed next
to the recorded baseline (``questions/baseline.json``, written by ``--save-baseline``).
Targets: public held-out half ≥ 90 % right and ≤ 2 % wrong; own set ≥ 99 %.
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
from public import KINDS, PublicQuestion
from public.tables import TABLES as PUBLIC_TABLES
from questions.expect import Expected, Question, check
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
TARGET_RIGHT, TARGET_WRONG, TARGET_OWN = 0.90, 0.02, 0.99


def questions(only: set[str] | None = None) -> list[Question]:
    found = []
    for table in TABLES:
        if only and table not in only:
            continue
        module = importlib.import_module(f"questions.{table}")
        found += [Question(q.text, q.category, q.expect, table=table) for q in module.QUESTIONS]
    return found


OUTCOMES = ("right", "wrong", "asked")


def public_questions(only: set[str] | None = None) -> list[tuple[str, PublicQuestion]]:
    found = []
    for table in PUBLIC_TABLES:
        if (only and table not in only) or not (Path(__file__).parent / "public" / f"{table}.py").is_file():
            continue
        module = importlib.import_module(f"public.{table}")
        found += [(table, question) for question in module.QUESTIONS]
    return found


def run_set(selected: list[Question], root: Path, *, verbose: bool) -> list[dict[str, Any]]:
    """The own set: every question through the analyst; one session (and sandbox) per table."""
    results = []
    for table_name in dict.fromkeys(q.table for q in selected):
        table = TABLES[table_name]
        asked = [(q.text, q.expect) for q in selected if q.table == table_name]
        chosen = [q for q in selected if q.table == table_name]
        for question, result in zip(chosen, _ask_all(table.write(root), table.frame(), asked, root), strict=True):
            results.append({"table": table_name, "category": question.category, **result})
            _show(verbose, f"[{question.category}] {table_name}", result)
    return results


def run_public(selected: list[tuple[str, PublicQuestion]], root: Path, *, verbose: bool) -> list[dict[str, Any]]:
    """The public set: every question through the analyst; one session (and sandbox) per table."""
    results = []
    for table_name in dict.fromkeys(table for table, _ in selected):
        table = PUBLIC_TABLES[table_name]
        chosen = [q for t, q in selected if t == table_name]
        asked = [(q.text, q.expect) for q in chosen]
        for question, result in zip(chosen, _ask_all(table.write(root), table.frame(), asked, root), strict=True):
            half = "held_out" if question.held_out else "tuning"
            results.append(
                {"table": table_name, "batch": table.batch, "id": question.id, "kind": question.kind, "half": half}
                | result
            )
            _show(verbose, f"[{question.kind}] {table_name}#{question.id}", result)
    return results


def _ask_all(path: Path, frame: Any, asked: list[tuple[str, Any]], root: Path) -> list[dict[str, Any]]:
    settings = Settings(workspace_root=root, model="offline")
    results = []
    with AnalysisSession(path, settings=settings) as session:
        for text, expect in asked:
            expected: Expected = expect(frame)
            session.messages = []
            status = "error"
            try:
                _restore(session)
                turn = session.ask(text)
                status = turn.status
                answer = turn.answer or turn.question or turn.error or ""
            except Exception as exc:  # one broken turn is one wrong answer, not a stopped run
                answer = f"{type(exc).__name__}: {exc}"
            right = status == "finalized" and check(expected, answer)
            outcome = "right" if right else "asked" if status == "asked" else "wrong"
            results.append(
                {
                    "question": text,
                    "expected": expected.shown(),
                    "form": expected.form,
                    "answer": answer,
                    "status": status,
                    "outcome": outcome,
                    "correct": right,
                }
            )
    return results


def _show(verbose: bool, label: str, result: dict[str, Any]) -> None:
    if verbose and result["outcome"] != "right":
        mark = "?" if result["outcome"] == "asked" else "✗"
        print(
            f"{mark} {label}: {result['question']}\n"
            f"    expected {result['form']} {result['expected']}\n    got: {result['answer'][:300]}"
        )


def outcomes(results: list[dict[str, Any]]) -> list[int]:
    """[right, wrong, asked] over ``results``."""
    counted = Counter(result["outcome"] for result in results)
    return [counted[outcome] for outcome in OUTCOMES]


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
    """[right, wrong, asked] per half (official scoring decides right)."""
    settings = Settings(workspace_root=root, model="offline")
    asked, responses, results = dabench.run(DABENCH, settings=settings)
    labels = dabench.load_labels(DABENCH)
    status = {int(result["id"]): result.get("status") for result in results}
    halves = {}
    for half, parity in (("even", 0), ("odd", 1)):
        chosen = [q for q in asked if q.id % 2 == parity]
        scores = dabench.score(chosen, labels, responses)
        questioned = sum(status.get(q.id) == "asked" for q in chosen)
        halves[half] = [scores.correct, scores.questions - scores.correct - questioned, questioned]
    return halves


def _pct(pair: list[int] | None) -> str:
    if not pair or not pair[1]:
        return "—"
    return f"{pair[0]:>3}/{pair[1]:<3} {pair[0] / pair[1]:6.1%}"


def _three(counts: list[int] | None) -> str:
    """right / wrong / asked of a set, with the share right."""
    if not counts or len(counts) != 3 or not sum(counts):
        return "—"
    right, wrong, asked = counts
    return f"{right:>3} {wrong:>3} {asked:>3}  {right / sum(counts):6.1%}"


def report_own(now: dict[str, list[int]], baseline: dict[str, Any]) -> None:
    before = baseline.get("categories", {})
    print(f"\nOwn set by category ({sum(t for _, t in now.values())} questions, {len(TABLES)} generated tables)\n")
    print(f"{'category':<16} {'baseline':>16} {'now':>16}")
    for category, pair in now.items():
        print(f"{category:<16} {_pct(before.get(category)):>16} {_pct(pair):>16}")


def report_public(results: list[dict[str, Any]], baseline: dict[str, Any]) -> None:
    """The public set by kind, batch and half: where the misses and the questions back are."""
    for batch in BATCHES:
        chosen = [r for r in results if r["batch"] == batch]
        if not chosen:
            continue
        print(f"\nPublic tables, batch {batch}, by kind (right wrong asked; tuning half | held-out half)\n")
        for kind in KINDS:
            halves = [outcomes([r for r in chosen if r["kind"] == kind and r["half"] == half]) for half in HALVES]
            if any(sum(h) for h in halves):
                print(f"{kind:<16} {_three(halves[0]):>22} | {_three(halves[1]):>22}")
    before = baseline.get("public_kinds", {})
    if before:
        print(f"(baseline recorded {len(before)} kinds)")


HALVES = ("tuning", "held_out")
BATCHES = (1, 2, 3)  # written 2026-11-30, 2026-12-07 and 2026-12-07 (public/tables.py)


def public_tally(results: list[dict[str, Any]]) -> dict[str, list[int]]:
    """[right, wrong, asked] per half of each batch ("tuning", "held_out" for the first batch,
    "tuning_2", "held_out_2" for the second, and so on) and of all batches together ("held_out_all")."""
    tally: dict[str, list[int]] = {}
    for batch in BATCHES:
        for half in HALVES:
            key = half if batch == 1 else f"{half}_{batch}"
            tally[key] = outcomes([r for r in results if r["batch"] == batch and r["half"] == half])
    for half in HALVES:
        tally[f"{half}_all"] = outcomes([r for r in results if r["half"] == half])
    return tally


def summary(rows: list[tuple[str, list[int] | None, list[int] | None]]) -> None:
    print("\nSummary: right, wrong (a confident answer to another question, an error, none), asked back\n")
    print(f"{'set':<34} {'baseline':>24} {'now':>24}")
    print(f"{'':<34} {'right wrong asked':>24} {'right wrong asked':>24}")
    for label, before, now in rows:
        print(f"{label:<34} {_three(before):>24} {_three(now):>24}")


def verdicts(public: dict[str, list[int]], own: list[int] | None) -> None:
    for key, label in (
        ("held_out", "batch 1"),
        ("held_out_2", "batch 2"),
        ("held_out_3", "batch 3"),
        ("held_out_all", "all batches"),
    ):
        held = public.get(key)
        if not held or not sum(held):
            continue
        right, wrong = held[0] / sum(held), held[1] / sum(held)
        verdict = "PASS" if right >= TARGET_RIGHT and wrong <= TARGET_WRONG else "MISS"
        print(
            f"{verdict}  public held-out half, {label}: {right:.1%} right (target ≥ {TARGET_RIGHT:.0%}), "
            f"{wrong:.1%} wrong (target ≤ {TARGET_WRONG:.0%})"
        )
    if own and sum(own):
        share = own[0] / sum(own)
        print(f"{'PASS' if share >= TARGET_OWN else 'MISS'}  own set: {share:.1%} right (target ≥ {TARGET_OWN:.0%})")


def _if(results: list[dict[str, Any]], counts: list[int]) -> list[int] | None:
    return counts if results else None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", help="comma-separated table names (own or public)")
    parser.add_argument("--category", help="comma-separated categories of the own set")
    parser.add_argument("--kind", help="comma-separated kinds of the public set")
    parser.add_argument("--half", choices=("tuning", "held_out", "both"), default="both", help="public halves to run")
    parser.add_argument("--batch", choices=("1", "2", "3", "all"), default="all", help="public batches to run")
    parser.add_argument("--verbose", action="store_true", help="print every missed question and its answer")
    parser.add_argument("--no-dabench", action="store_true", help="skip the DABench halves")
    parser.add_argument("--no-public", action="store_true", help="skip the public tables")
    parser.add_argument("--no-own", action="store_true", help="skip the own set")
    parser.add_argument("--dabench-only", action="store_true", help="only the DABench halves")
    parser.add_argument("--save-baseline", action="store_true", help="record this run as the baseline")
    parser.add_argument("--output", type=Path, help="write every question's result as JSONL")
    args = parser.parse_args()
    only = set(args.only.split(",")) if args.only else None
    own_selected = [] if args.no_own or args.dabench_only else questions(only)
    if args.category:
        own_selected = [q for q in own_selected if q.category in args.category.split(",")]
    public_selected = [] if args.no_public or args.dabench_only else public_questions(only)
    if args.kind:
        public_selected = [(t, q) for t, q in public_selected if q.kind in args.kind.split(",")]
    if args.batch != "all":
        public_selected = [(t, q) for t, q in public_selected if PUBLIC_TABLES[t].batch == int(args.batch)]
    if args.half != "both":
        public_selected = [(t, q) for t, q in public_selected if q.held_out == (args.half == "held_out")]
    root = Path(tempfile.mkdtemp(prefix="bunseki-questions-"))
    root.chmod(0o711)
    began = time.perf_counter()
    try:
        public_results = run_public(public_selected, root, verbose=args.verbose)
        own_results = run_set(own_selected, root, verbose=args.verbose)
        halves = None
        if not args.no_dabench and (DABENCH / "da-dev-questions.jsonl").is_file():
            halves = run_dabench(root)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    baseline = json.loads(BASELINE.read_text(encoding="utf-8")) if BASELINE.is_file() else {}
    now = tally(own_results)
    if now:
        report_own(now, baseline)
    if public_results:
        report_public(public_results, baseline)
    public = public_tally(public_results)
    own = outcomes(own_results) if own_results else None
    old_public, old_dabench = baseline.get("public", {}), baseline.get("dabench", {})
    shown = public if public_results else {}
    rows: list[tuple[str, list[int] | None, list[int] | None]] = [
        ("public batch 1, tuning half (even)", old_public.get("tuning"), shown.get("tuning")),
        ("public batch 1, held-out half (odd)", old_public.get("held_out"), shown.get("held_out")),
        ("public batch 2, tuning half (even)", old_public.get("tuning_2"), shown.get("tuning_2")),
        ("public batch 2, held-out half (odd)", old_public.get("held_out_2"), shown.get("held_out_2")),
        ("public batch 3, tuning half (even)", old_public.get("tuning_3"), shown.get("tuning_3")),
        ("public batch 3, held-out half (odd)", old_public.get("held_out_3"), shown.get("held_out_3")),
        ("public, all held-out halves", old_public.get("held_out_all"), shown.get("held_out_all")),
        ("own set (generated tables)", baseline.get("own"), own),
        ("DABench dev, even ids (tuning)", old_dabench.get("even"), halves["even"] if halves else None),
        ("DABench dev, odd ids (held out)", old_dabench.get("odd"), halves["odd"] if halves else None),
    ]
    summary(rows)
    verdicts(public if public_results else {}, own)
    print(f"\n({time.perf_counter() - began:.0f} s)")
    if args.output:
        with args.output.open("w", encoding="utf-8") as handle:
            for result in [*public_results, *own_results]:
                handle.write(json.dumps(result, ensure_ascii=False) + "\n")
    if args.save_baseline:
        if args.only or args.category or args.kind or args.half != "both" or args.batch != "all" or args.dabench_only:
            print("not saving a baseline from a partial run", file=sys.stderr)
            return 1
        record = {
            "public": public if public_results else old_public,
            "own": own or baseline.get("own"),
            "categories": now or baseline.get("categories", {}),
            "dabench": halves or old_dabench,
        }
        BASELINE.write_text(json.dumps(record, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())

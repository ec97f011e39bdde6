"""The investigator on an evaluation set of 16 small time-series cases with one known defect each.

    python benchmarks/investigator_cases.py [--half tuning|held-out|both] [--case i03] [--jsonl FILE]

Each case under benchmarks/investigator/cases/ (made by benchmarks/investigator/make_cases.py)
is an algorithm with exactly one defect, its specifications, an evaluation environment written
the way its author would (eval_func reads the expected text itself, answers in its own form) and
two or three datasets, at least one of them consistent. Odd ids are the tuning half, even ids
the held-out half. The investigation runs with the offline brain in a temporary workspace.

Judged per case, against truth/ (never shown to the investigator):
- cause verified: a dataset whose output differs from the reference reports a fix, and the
  defective code with that diff applied reproduces truth/hidden.csv's reference flags exactly;
- wrong fix: a fix is claimed but fails that hidden check;
- consistent datasets blamed: output equals the reference, yet the status is not "consistent";
- errors: a refusal (an exception such as CaseError before any work) or a dataset in "error".
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import statistics
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bunseki.service.investigations import InvestigationService, InvestigationView
from bunseki.settings import Settings
from investigator.casekit import CASES, apply_unified_diff, entry_of, flags, load_function, manifest, truth


@dataclass
class Outcome:
    case: str
    half: str
    kind: str
    has_entry: bool
    outcome: str  # verified | wrong fix | not found | refused | error
    seconds: float
    verified: bool = False
    wrong_fixes: int = 0
    consistent_blamed: int = 0
    consistent_total: int = 0
    errors: int = 0
    note: str = ""
    datasets: list[dict[str, Any]] = field(default_factory=list)


def half_of(case_id: str) -> str:
    return "tuning" if int(case_id[1:]) % 2 else "held-out"


def _target(diff: str) -> str | None:
    match = re.search(r"^\+\+\+ (?:b/)?(\S+)", diff, flags=re.MULTILINE)
    return Path(match.group(1)).name if match else None


def fix_reproduces(case_dir: Path, diff: str) -> tuple[bool, str]:
    """Whether the defective code with ``diff`` applied gives truth/hidden.csv's reference flags."""
    code_name, function = entry_of(case_dir)
    target = _target(diff)
    if target is not None and target != code_name:
        return False, f"the fix edits {target}, not {code_name}"
    try:
        patched = apply_unified_diff((case_dir / code_name).read_text(encoding="utf-8"), diff)
    except ValueError as exc:
        return False, str(exc)
    hidden = pd.read_csv(case_dir / "truth" / "hidden.csv")
    column = str(hidden.columns[-1])
    with tempfile.TemporaryDirectory(prefix="bunseki-fix-") as scratch:
        path = Path(scratch) / code_name
        path.write_text(patched, encoding="utf-8")
        try:
            result = load_function(path, function)(hidden.drop(columns=[column]))
            got = flags(result, column)
        except Exception as exc:  # the patched code is the investigator's; anything may go wrong in it
            return False, f"the fixed code raised {type(exc).__name__}: {exc}"
    same = got.shape == hidden[column].shape and bool(np.array_equal(got, hidden[column].to_numpy()))
    return same, "reproduces the hidden reference" if same else "differs from the hidden reference"


def consistent_datasets(case_dir: Path) -> set[str]:
    """The datasets whose output equals the reference flag on every frame."""
    names = set()
    for item in manifest(case_dir)["datasets"]:
        output, core = pd.read_csv(case_dir / item["output_csv"]), pd.read_csv(case_dir / item["core_csv"])
        if output.equals(core):
            names.add(str(item["name"]))
    return names


def _gist(text: str) -> str:
    """A conclusion in one line: a traceback's last line, else the text."""
    if "Traceback" in text:
        lines = [line.strip() for line in text.splitlines() if line.strip()]
        return lines[-1] if lines else text
    return " ".join(text.split())


def judge(case_dir: Path, view: InvestigationView, outcome: Outcome) -> None:
    consistent = consistent_datasets(case_dir)
    outcome.consistent_total = len(consistent)
    notes = []
    for result in view.datasets:
        record = {"name": result.name, "status": result.status, "fix": result.fix is not None}
        if result.name in consistent and result.status != "consistent":
            outcome.consistent_blamed += 1
        if result.status == "error":
            outcome.errors += 1
        if result.fix and result.name not in consistent:
            ok, why = fix_reproduces(case_dir, result.fix)
            record["fix_check"] = why
            outcome.verified = outcome.verified or ok
            outcome.wrong_fixes += not ok
        outcome.datasets.append(record)
        notes.append(f"{result.name}: {result.status}; {_gist(result.conclusion)}")
    if view.status == "error":
        outcome.errors += 1
        outcome.outcome, outcome.note = "error", view.error or "error"
        return
    if outcome.verified:
        outcome.outcome = "verified"
    elif outcome.wrong_fixes:
        outcome.outcome = "wrong fix"
    elif outcome.errors:
        outcome.outcome = "error"
    else:
        outcome.outcome = "not found"
    outcome.note = " | ".join(notes)


def run_case(case_dir: Path, settings: Settings) -> Outcome:
    facts = truth(case_dir)
    outcome = Outcome(
        case=case_dir.name,
        half=half_of(case_dir.name),
        kind=str(facts["kind"]),
        has_entry="entry" in manifest(case_dir),
        outcome="",
        seconds=0.0,
    )
    began = time.perf_counter()
    try:
        view = InvestigationService(settings).run(case_dir / "case.yaml")
    except Exception as exc:  # a refusal (CaseError) or a crash: the case fails with it
        outcome.seconds = time.perf_counter() - began
        outcome.outcome, outcome.errors = "refused", 1
        outcome.note = f"{type(exc).__name__}: {exc}"
        return outcome
    outcome.seconds = time.perf_counter() - began
    judge(case_dir, view, outcome)
    return outcome


def table(half: str, outcomes: list[Outcome]) -> str:
    rows = [o for o in outcomes if o.half == half]
    if not rows:
        return ""
    blamed = sum(o.consistent_blamed for o in rows)
    consistent = sum(o.consistent_total for o in rows)
    refusals = sum(o.outcome == "refused" for o in rows)
    errors = sum(o.errors for o in rows) - refusals
    lines = [
        f"### {half}",
        "",
        "| cases | causes verified | wrong fixes | consistent datasets blamed | errors / refusals | median s |",
        "|---:|---:|---:|---:|---:|---:|",
        f"| {len(rows)} | {sum(o.verified for o in rows)} | {sum(o.wrong_fixes for o in rows)} "
        f"| {blamed} of {consistent} | {errors} / {refusals} | {statistics.median(o.seconds for o in rows):.1f} |",
        "",
    ]
    for o in rows:
        entry = "entry" if o.has_entry else "no entry"
        note = " ".join(o.note.split())[:120]
        lines.append(f"- {o.case} {o.kind} ({entry}): {o.outcome} — {note}")
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--half", choices=["tuning", "held-out", "both"], default="both")
    parser.add_argument("--case", help="run one case, e.g. i03")
    parser.add_argument("--jsonl", type=Path, help="write one JSON line per case to this file")
    args = parser.parse_args()
    cases = sorted(path.parent for path in CASES.glob("*/case.yaml"))
    if args.case:
        cases = [path for path in cases if path.name == args.case]
    elif args.half != "both":
        cases = [path for path in cases if half_of(path.name) == args.half]
    root = Path(tempfile.mkdtemp(prefix="bunseki-invcases-"))
    root.chmod(0o711)
    outcomes: list[Outcome] = []
    try:
        settings = Settings(workspace_root=root, model="offline")
        for case_dir in cases:
            outcome = run_case(case_dir, settings)
            outcomes.append(outcome)
            print(f"{outcome.case}: {outcome.outcome} in {outcome.seconds:.1f} s", file=sys.stderr, flush=True)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    if args.jsonl:
        with args.jsonl.open("w", encoding="utf-8") as out:
            for outcome in outcomes:
                out.write(json.dumps(asdict(outcome), ensure_ascii=False) + "\n")
    print(f"## Investigator cases ({len(outcomes)} cases)\n")
    for half in ("tuning", "held-out"):
        text = table(half, outcomes)
        if text:
            print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())

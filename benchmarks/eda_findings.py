"""Does an EDA report raise what a careful analyst would? On public tables, offline.

    python benchmarks/eda_findings.py [--table NAME] [--jsonl FILE] [--keep]

For each table of ``eda/tables/`` (made by ``eda/build_tables.py`` from data shipped in PyPI
packages, see ``eda/SOURCES.md``), a whole EDA run as ``bunseki eda FILE --yes`` does it: an
`EdaService` with the offline model in a temporary workspace root, every review approved, then the
report's Markdown is read. The flags a careful analyst would raise were written per table before
any run (``eda/expected.py``); a flag counts as raised only on plain evidence in the report:

- partial_period: a partial / incomplete period is mentioned (部分, 途中, 不完全, 一部の期間, partial,
  incomplete) and no first-to-last change ("from A in X to B in Y", 「X の A から Y の B へ」, …)
  has an end in a period the table knows to be partial;
- skew_log: "log" / 対数 in the same paragraph as a skewed measure's name;
- pearson_spearman: one sentence names Pearson and Spearman (ピアソン, スピアマン) and an outlier or
  monotone relation (outlier, 外れ値, monotone, 単調);
- outliers_with_without: "without" / "excluding" / 除く, 除いた, 除外 with a number in the same sentence;
- boolean_labels: no bare True/False outside code, and in a Japanese report あり/なし or yes/no shown;
- missing_labels: 欠損 or "missing" shown.

Charts are PNGs; without OCR their axis offsets (1e8) cannot be read, so they are counted, not
inspected ("charts: not inspected"). Prints a Markdown table (expected, raised, missing per table)
and totals; ``--jsonl`` writes one line per table with the evidence. Always exits 0.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bunseki.service.eda import EdaService
from bunseki.settings import Settings
from eda.expected import EXPECTED, FLAGS, Expected

HERE = Path(__file__).resolve().parent
TABLES = HERE / "eda" / "tables"
MAX_REVIEWS = 10

PARTIAL_WORDS = re.compile(r"部分|途中|不完全|一部の期間|partial|incomplete", re.IGNORECASE)
LOG_WORDS = re.compile(r"\blog|対数", re.IGNORECASE)
PEARSON = re.compile(r"pearson|ピアソン", re.IGNORECASE)
SPEARMAN = re.compile(r"spearman|スピアマン", re.IGNORECASE)
RECONCILE = re.compile(r"outlier|外れ値|monoton|単調", re.IGNORECASE)
WITHOUT = re.compile(r"without|excluding|除く|除いた|除外|除けば", re.IGNORECASE)
NUMBER = re.compile(r"\d")
BARE_BOOL = re.compile(r"(?<![A-Za-z_])(True|False)(?![A-Za-z_])")
JA_BOOL = re.compile(r"あり|なし|(?<![A-Za-z])(yes|no)(?![A-Za-z])", re.IGNORECASE)
MISSING = re.compile(r"欠損|missing", re.IGNORECASE)
KANA = re.compile(r"[\u3040-\u30ff]")
CHART = re.compile(r"!\[[^\]]*\]\(([^)]+)\)")

# first-to-last changes: each pattern captures the two ends x and y
CHANGES = [
    re.compile(r"from\s+\S+\s+in\s+(?P<x>[^.;,]+?)\s+to\s+\S+\s+in\s+(?P<y>[^.;,()]+)", re.IGNORECASE),
    re.compile(r"from\s+(?P<x>[^.;,()]+?)\s*\([^)]*\)\s*to\s+(?P<y>[^.;,()]+?)\s*\(", re.IGNORECASE),
    re.compile(r"between\s+(?P<x>[^.;,]+?)\s+and\s+(?P<y>[^.;,()]+)", re.IGNORECASE),
    re.compile(
        r"(?P<x>[^\s、。,（(]+?)\s*の\s*[^\s、。から]+\s*から\s*(?P<y>[^\s、。,（(]+?)\s*の\s*[^\s、。]+?\s*[へに]"
    ),
    re.compile(r"(?P<x>[^\s、。,（(]+?)\s*[（(][^）)]*[）)]\s*から\s*(?P<y>[^\s、。,（(]+?)\s*[（(]"),
    re.compile(r"(?P<x>[^\s、。,（(]+?)\s*から\s*(?P<y>[^\s、。,（(]+?)\s*(?:にかけて|まで)"),
]
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December"]  # fmt: skip


def run_table(path: Path, expected: Expected, root: Path) -> dict[str, Any]:
    """One whole run on ``path``, every review approved: the report's Markdown and the run's outcome."""
    settings = Settings(workspace_root=root, model="offline")
    started = time.monotonic()
    with EdaService(settings) as service:
        run = service.start(path, goal=expected.goal)
        for _ in range(MAX_REVIEWS):
            if run.review is None:
                break
            run = service.resume(run.run_id, {"action": "approve"})
    return {
        "status": run.status,
        "error": run.error,
        "report": run.report_markdown or "",
        "report_path": run.report_path,
        "seconds": round(time.monotonic() - started, 1),
    }


def without_code(markdown: str) -> str:
    return re.sub(r"```.*?```", " ", markdown, flags=re.DOTALL)


def sentences(text: str) -> list[str]:
    return [part for part in re.split(r"(?<=[.!?])\s+|(?<=[。！？])|\n+", text) if part and part.strip()]


def paragraphs(text: str) -> list[str]:
    return [part for part in re.split(r"\n\s*\n", text) if part.strip()]


def _covered(first: dt.date, last: dt.date, begin: dt.date, end: dt.date, step: str) -> bool:
    """Whether the table's span holds every day (or business day) from ``begin`` to ``end``."""
    days = [begin + dt.timedelta(days=offset) for offset in range((end - begin).days + 1)]
    if step == "business":
        days = [day for day in days if day.weekday() < 5]
    return all(first <= day <= last for day in days)


def partial_labels(expected: Expected) -> list[dt.date | int | tuple[int, int]]:
    """The labels of the partial periods (a week's start or end date, a (year, month), a year).

    A week is labelled by its start (Monday or Sunday) or its end (Sunday, or Monday as pandas' W-MON
    does); every convention under which the first or last week is partial gives one label.
    """
    if expected.span is None:
        return []
    first, last = (dt.date.fromisoformat(value) for value in expected.span[:2])
    step = expected.span[2]
    if step == "month":  # one row a month: only years can be partial
        last = (dt.date(last.year + (last.month == 12), last.month % 12 + 1, 1)) - dt.timedelta(days=1)
    grains = {grain for grain, _ in expected.partial}
    labels: list[dt.date | int | tuple[int, int]] = []
    for edge in (first, last):
        if "week" in grains:
            for start_weekday in (0, 6, 1):  # Monday starts, Sunday starts, Tuesday starts (W-MON)
                begin = edge - dt.timedelta(days=(edge.weekday() - start_weekday) % 7)
                end = begin + dt.timedelta(days=6)
                if not _covered(first, last, begin, end, step):
                    labels += [begin, end]
        if "month" in grains:
            begin = edge.replace(day=1)
            end = dt.date(begin.year + (begin.month == 12), begin.month % 12 + 1, 1) - dt.timedelta(days=1)
            if not _covered(first, last, begin, end, step):
                labels.append((edge.year, edge.month))
        year = (dt.date(edge.year, 1, 1), dt.date(edge.year, 12, 31))
        if "year" in grains and not _covered(first, last, *year, step):
            labels.append(edge.year)
    return labels


def label_patterns(label: dt.date | int | tuple[int, int]) -> list[re.Pattern[str]]:
    """How a report may write a period label: ISO, slashes, Japanese, English month names."""
    if isinstance(label, int):
        return [re.compile(rf"(?<![\d/-]){label}(?![\d/-])(?!年\s*\d)")]
    if isinstance(label, tuple):
        year, month = label
        name = MONTHS[month - 1]
        return [
            re.compile(rf"{year}[-/]0?{month}(?![\d])"),
            re.compile(rf"{year}年\s*0?{month}月"),
            re.compile(rf"(?:{name}|{name[:3]})\.?,?\s+{year}", re.IGNORECASE),
        ]
    return [
        re.compile(rf"{label.year}[-/]0?{label.month}[-/]0?{label.day}(?!\d)"),
        re.compile(rf"{label.year}年\s*0?{label.month}月\s*0?{label.day}日"),
    ]


def _week_partial(x: dt.date, y: dt.date, expected: Expected) -> bool:
    """Whether a weekly change from the week labelled ``x`` to the one labelled ``y`` includes a partial
    week under every labelling that fits (labels at week starts, or at week ends as pandas' W-MON)."""
    assert expected.span is not None
    first, last = (dt.date.fromisoformat(value) for value in expected.span[:2])
    if expected.span[2] == "hour":
        last -= dt.timedelta(days=1)  # the last day holds a few hours only
    step = expected.span[2]

    def partial(begin: dt.date) -> bool:
        return not _covered(first, last, begin, begin + dt.timedelta(days=6), step)

    as_starts = partial(x) or partial(y)
    as_ends = partial(x - dt.timedelta(days=6)) or partial(y - dt.timedelta(days=6))
    return as_starts and as_ends


ISO_DATE = re.compile(r"(\d{4})-(\d{2})-(\d{2})")
WEEKLY = re.compile(r"週|week", re.IGNORECASE)


def partial_changes(text: str, expected: Expected) -> list[str]:
    """The first-to-last changes stated with an end in a partial period.

    Weekly changes between two ISO dates are judged on the table's span (labels at week starts or
    ends); any other end is matched against the partial periods' labels (months, years, dates).
    """
    markers = [pattern for label in partial_labels(expected) for pattern in label_patterns(label)]
    weeks = any(grain == "week" for grain, _ in expected.partial) and expected.span is not None
    found = []
    for sentence in sentences(text):
        for pattern in CHANGES:
            for match in pattern.finditer(sentence):
                ends = (match.group("x"), match.group("y"))
                dates = [ISO_DATE.search(end) for end in ends]
                if weeks and WEEKLY.search(sentence) and dates[0] and dates[1]:
                    x, y = (dt.date(*map(int, date.groups())) for date in dates if date)
                    wrong = _week_partial(x, y, expected)
                else:
                    wrong = any(marker.search(end) for marker in markers for end in ends)
                if wrong:
                    found.append(sentence.strip()[:200])
    return list(dict.fromkeys(found))


def judge(report: str, expected: Expected) -> tuple[set[str], dict[str, str]]:
    """The flags the report raises, and for each flag the evidence (or why not)."""
    text = without_code(report)
    japanese = bool(KANA.search(text))
    raised: set[str] = set()
    evidence: dict[str, str] = {}

    mention = PARTIAL_WORDS.search(text)
    wrong = partial_changes(text, expected)
    if mention and not wrong:
        raised.add("partial_period")
    evidence["partial_period"] = f"mention={bool(mention)} partial changes={wrong[:2]}"

    names = expected.measures
    near = [p for p in paragraphs(text) if LOG_WORDS.search(p) and (not names or any(n in p for n in names))]
    if near:
        raised.add("skew_log")
    evidence["skew_log"] = near[0].strip()[:160] if near else "no log note near the measures"

    both = [s for s in sentences(text) if PEARSON.search(s) and SPEARMAN.search(s) and RECONCILE.search(s)]
    if both:
        raised.add("pearson_spearman")
    evidence["pearson_spearman"] = both[0].strip()[:160] if both else "no reconciling sentence"

    with_without = [s for s in sentences(text) if WITHOUT.search(s) and NUMBER.search(s)]
    if with_without:
        raised.add("outliers_with_without")
    evidence["outliers_with_without"] = with_without[0].strip()[:160] if with_without else "none"

    bare = BARE_BOOL.findall(text)
    labels = JA_BOOL.search(text) if japanese else True
    if not bare and labels:
        raised.add("boolean_labels")
    evidence["boolean_labels"] = f"bare True/False={len(bare)} labels={'shown' if labels else 'none'}"

    if MISSING.search(text):
        raised.add("missing_labels")
    evidence["missing_labels"] = "shown" if "missing_labels" in raised else "not shown"
    return raised, evidence


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--table", help="one table (its file name without .csv)")
    parser.add_argument("--jsonl", type=Path, help="write one JSON line per table here")
    parser.add_argument("--keep", action="store_true", help="keep the workspace root (its path is printed)")
    args = parser.parse_args()
    names = [args.table] if args.table else sorted(EXPECTED)
    unknown = [name for name in names if name not in EXPECTED]
    if unknown:
        print(f"unknown table {unknown[0]}; known: {', '.join(sorted(EXPECTED))}")
        return
    root = Path(tempfile.mkdtemp(prefix="bunseki-eda-findings-"))
    rows: list[dict[str, Any]] = []
    try:
        for name in names:
            expected = EXPECTED[name]
            try:
                outcome = run_table(TABLES / f"{name}.csv", expected, root)
            except Exception as error:  # a run that fails raises nothing; the benchmark goes on
                outcome = {"status": "crashed", "error": f"{type(error).__name__}: {error}", "report": ""}
            raised, evidence = judge(outcome["report"], expected) if outcome["report"] else (set(), {})
            charts = CHART.findall(outcome["report"])
            row = {
                "table": name,
                "goal": expected.goal,
                "status": outcome["status"],
                "error": outcome.get("error"),
                "seconds": outcome.get("seconds"),
                "expected": list(expected.flags),
                "raised": [flag for flag in FLAGS if flag in raised and flag in expected.flags],
                "raised_unexpected": [flag for flag in FLAGS if flag in raised and flag not in expected.flags],
                "missing": [flag for flag in expected.flags if flag not in raised],
                "charts": len(charts),
                "evidence": evidence,
            }
            rows.append(row)
            print(f"{name}: {row['status']} in {row['seconds']} s, missing {row['missing']}", file=sys.stderr)
    finally:
        if args.keep:
            print(f"workspace root kept: {root}", file=sys.stderr)
        else:
            shutil.rmtree(root, ignore_errors=True)
    report(rows)
    if args.jsonl:
        with args.jsonl.open("w", encoding="utf-8") as out:
            for row in rows:
                out.write(json.dumps(row, ensure_ascii=False) + "\n")


def report(rows: list[dict[str, Any]]) -> None:
    print("| table | status | flags expected | flags raised | missing |")
    print("|---|---|---|---|---|")
    for row in rows:
        cells = [", ".join(row[key]) or "—" for key in ("expected", "raised", "missing")]
        print(f"| {row['table']} | {row['status']} | {' | '.join(cells)} |")
    expected = sum(len(row["expected"]) for row in rows)
    raised = sum(len(row["raised"]) for row in rows)
    complete = sum(not row["missing"] for row in rows)
    with_flags = [row for row in rows if row["expected"]]
    complete_flagged = sum(not row["missing"] for row in with_flags)
    print()
    print(f"flags raised / expected: {raised}/{expected}")
    print(f"tables with every flag: {complete}/{len(rows)} ({complete_flagged}/{len(with_flags)} of those with flags)")
    by_flag = {flag: [0, 0] for flag in FLAGS}
    for row in rows:
        for flag in row["expected"]:
            by_flag[flag][1] += 1
            by_flag[flag][0] += flag in row["raised"]
    print("per flag: " + ", ".join(f"{flag} {hit}/{total}" for flag, (hit, total) in by_flag.items()))
    print(f"charts: not inspected ({sum(row['charts'] for row in rows)} charts in the reports; no OCR for offsets)")


if __name__ == "__main__":
    main()

"""The slowest tests of one or more pytest JUnit XML reports, slowest first: ``slowest.py N REPORT...``.

``make test`` runs the suite in two passes (as root, then as unprivileged users); this lists the
slowest of both together, with the pass each ran in, once everything has run.
"""

from __future__ import annotations

import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path


def timings(report: Path) -> list[tuple[float, str]]:
    """(seconds, test id) of every test case in ``report``: setup, call and teardown together."""
    found = []
    for case in ElementTree.parse(report).getroot().iter("testcase"):  # noqa: S314  (pytest wrote it)
        test = f"{_test_path(case.get('classname', ''))}::{case.get('name', '')}"
        found.append((float(case.get("time") or 0), test))
    return found


def _test_path(classname: str) -> str:
    """``tests.cli.test_chat`` as ``tests/cli/test_chat.py``; a class stays after ``::``."""
    parts = classname.split(".")
    for cut in range(len(parts), 0, -1):
        path = Path(*parts[:cut]).with_suffix(".py")
        if path.is_file():
            return "::".join([str(path), *parts[cut:]])
    return classname


def main(argv: list[str]) -> int:
    if len(argv) < 2 or not argv[0].isdigit():
        print(__doc__.splitlines()[0], file=sys.stderr)
        return 2
    count, reports = int(argv[0]), [Path(name) for name in argv[1:] if Path(name).is_file()]
    rows = [(seconds, test, report.stem) for report in reports for seconds, test in timings(report)]
    if not rows:
        return 0
    print(f"=== the {count} slowest tests of {len(rows)} ({', '.join(r.stem for r in reports)}) ===")
    for seconds, test, where in sorted(rows, reverse=True)[:count]:
        print(f"{seconds:8.2f}s  {test}  [{where}]")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""Runs the Ray cluster tests (``cluster/``) inside a private network namespace and checks their outcome.

Ray listens on every interface of its network namespace; a fresh namespace with only loopback keeps
the test cluster's ports off this machine's interfaces. Creating one needs root (CI runs as root) or
unprivileged user namespaces (``unshare -rn``). Every inner test must pass (none skipped), and no
process of the run may be left afterwards.
"""

from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from tests.scale.conftest import processes_of_the_run
from tests.scale.testbed import REENTER, private_netns

ROOT = Path(__file__).resolve().parents[2]
INNER = Path(__file__).parent / "cluster"
INNER_BOUND_S = 1200  # a bound for hangs on a loaded machine, not a timing check
INNER_RUN = ["-m", "pytest", "tests/scale/cluster", "-q", "-p", "no:cacheprovider"]


def inner_test_count() -> int:
    count = 0
    for path in sorted(INNER.glob("test_*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        count += sum(isinstance(node, ast.FunctionDef) and node.name.startswith("test_") for node in tree.body)
        count += sum(  # tests of another module run again here (the replicas, on the Ray backend)
            alias.name.startswith("test_")
            for node in tree.body
            if isinstance(node, ast.ImportFrom)
            for alias in node.names
        )
    return count


def test_the_inner_counting_sees_every_cluster_test() -> None:
    assert inner_test_count() >= 8


@pytest.mark.slow
@pytest.mark.timeout(INNER_BOUND_S + 120)  # the suite's 300 s per test is too short for the whole inner run
def test_the_ray_cluster_tests_pass_inside_a_private_network_namespace() -> None:
    pytest.importorskip("ray", reason="Ray is not installed: pip install 'bunseki[ray]' (make setup does)")
    prefix = private_netns()
    if prefix is None:
        pytest.skip("a private network namespace needs root or unprivileged user namespaces (unshare -rn)")
    scratch = Path(tempfile.mkdtemp(prefix="bkray-"))
    environment = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "RAY_TMPDIR": str(scratch)}
    try:
        run = subprocess.run(
            [*prefix, "sh", "-c", REENTER, sys.executable, *INNER_RUN],
            cwd=ROOT,
            env=environment,
            capture_output=True,
            text=True,
            timeout=INNER_BOUND_S,
            check=False,
        )
        leftovers = processes_of_the_run(scratch)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)

    summary = run.stdout.strip().splitlines()[-1] if run.stdout.strip() else ""
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-3000:]
    passed = re.search(r"(\d+) passed", summary)
    assert passed is not None, summary
    assert int(passed.group(1)) == inner_test_count(), summary
    assert not re.search(r"skipped|failed|error|deselected", summary), summary
    assert leftovers == []

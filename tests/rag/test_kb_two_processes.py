"""Embedded Qdrant allows one process at a time: a second process (``bunseki kb ...`` while another
holds the workspace's knowledge base, as ``bunseki serve`` does) gets advice, not a traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import bunseki
from tests import commandline

HOLD = """
import sys
from pathlib import Path
from bunseki.rag.store import VectorStore
store = VectorStore.open(url=None, api_key=None, path=Path(sys.argv[1]) / "qdrant")
print("holding", flush=True)
sys.stdin.read()  # until the test closes our stdin
store.close()
"""


def environment() -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith(("QDRANT_", "BUNSEKI_"))}
    # the bunseki under test (the tests may run from another folder than the checkout)
    source = str(Path(bunseki.__file__).resolve().parents[1])
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [source, env.get("PYTHONPATH")]))
    return env


def run_bunseki(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return commandline.bunseki(*args, env=environment(), timeout=120)


@pytest.fixture
def holder(tmp_path: Path) -> Iterator[subprocess.Popen[str]]:
    """Another process with the knowledge base of ``tmp_path`` open."""
    process = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(tmp_path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=environment(),
    )
    assert process.stdout is not None and process.stdout.readline().strip() == "holding"
    yield process
    if process.poll() is None:
        process.communicate("", timeout=60)


@pytest.mark.slow
def test_a_second_process_is_told_what_to_do_and_works_once_the_first_is_gone(
    tmp_path: Path, holder: subprocess.Popen[str]
) -> None:
    for args in (("ask", "ポンプの点検はいつ？", "-c", "docs"), ("collections",)):
        done = run_bunseki("kb", *args, "--workspace-root", tmp_path)
        error = " ".join(done.stderr.split())
        assert done.returncode == 5, done.stderr  # unavailable, as the exit-code table says
        assert "KnowledgeBaseLocked" in error and "another Bunseki process" in error
        assert "QDRANT_URL" in error and "Traceback" not in error
    holder.communicate("", timeout=60)  # the other process stops
    done = run_bunseki("kb", "collections", "--workspace-root", tmp_path)
    assert done.returncode == 0, done.stderr

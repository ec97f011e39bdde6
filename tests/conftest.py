"""Test isolation: every test gets its own workspace root and a clean BUNSEKI_* environment."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from bunseki.settings import Settings


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """No setting leaks in from the machine running the tests."""
    for name in list(os.environ):
        if name.startswith("BUNSEKI_"):
            monkeypatch.delenv(name)
    monkeypatch.chdir(tempfile.gettempdir())  # so no .env file of the repository is read


@pytest.fixture
def workspace_root() -> Iterator[Path]:
    """A workspace root the sandbox user can reach (pytest's tmp_path is private to root)."""
    root = Path(tempfile.mkdtemp(prefix="bunseki-test-"))
    root.chmod(0o711)
    yield root
    shutil.rmtree(root, ignore_errors=True)


@pytest.fixture
def settings(workspace_root: Path) -> Settings:
    return Settings(workspace_root=workspace_root, sandbox_timeout_s=20)


from tests._killswitch import block_remote_model_requests  # noqa: E402, F401  (no test may reach a real model)

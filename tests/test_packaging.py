"""Ray is an extra (``bunseki[ray]``): nothing imports it unless the Ray backend is chosen."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import bunseki as package

SOURCE = str(Path(package.__file__).resolve().parents[1])  # the code under test, not an installed copy
PROBE = """
import importlib, json, sys
for name in sys.argv[1:]:
    importlib.import_module(name)
print(json.dumps(sorted(m for m in sys.modules if m == "ray" or m.startswith("ray."))))
"""


def imported_ray_modules(*modules: str) -> list[str]:
    """The ray modules a fresh interpreter holds after importing ``modules`` (no BUNSEKI_* setting set)."""
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *modules],
        capture_output=True,
        text=True,
        timeout=120,
        env={"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "PYTHONPATH": SOURCE},
    )
    assert done.returncode == 0, done.stderr
    return list(json.loads(done.stdout))


@pytest.mark.parametrize("module", ["bunseki", "bunseki.cli", "bunseki.api", "bunseki.service", "bunseki.sandbox"])
def test_the_default_install_does_not_import_ray(module: str) -> None:
    assert imported_ray_modules(module) == []


def test_the_probe_sees_ray_when_something_imports_it() -> None:
    pytest.importorskip("ray")  # make setup installs the extra; a plain install has no ray to see
    assert "ray" in imported_ray_modules("bunseki.cli", "ray")

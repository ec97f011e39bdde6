"""Choosing the isolation tier, refusing to run without one, and the explicit unsafe mode."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from bunseki.errors import IsolationUnavailable
from bunseki.sandbox import IsolationReport, Sandbox, isolation, new_workspace
from bunseki.settings import Settings
from tests.support import available_tiers


@pytest.fixture
def fresh_probe() -> Iterator[None]:
    isolation._probe.cache_clear()
    yield
    isolation._probe.cache_clear()


@pytest.fixture
def no_bubblewrap(monkeypatch: pytest.MonkeyPatch, fresh_probe: None) -> None:
    monkeypatch.setenv("PATH", "/nonexistent")


@pytest.mark.parametrize("tier", available_tiers())
def test_a_forced_tier_is_used(tier: str, workspace_root: Path) -> None:
    settings = Settings(workspace_root=workspace_root, sandbox_isolation=tier)  # type: ignore[arg-type]
    report = isolation.probe(settings)
    assert report.tier == tier
    with Sandbox(new_workspace(workspace_root), settings=settings) as box:
        assert box.ready["confinement"]["tier"] == tier


def test_auto_prefers_bubblewrap_when_it_works() -> None:
    tiers = available_tiers()
    if not tiers:
        pytest.skip("no tier available here")
    assert isolation.probe(Settings()).tier == tiers[0]


def test_root_never_runs_generated_code_as_root() -> None:
    report = isolation.probe(Settings(sandbox_uid=4242))
    expected = 4242 if os.geteuid() == 0 else os.geteuid()
    assert report.run_as_uid == expected


def test_without_any_tier_the_sandbox_refuses_and_says_how_to_fix_it(no_bubblewrap: None, workspace_root: Path) -> None:
    settings = Settings(workspace_root=workspace_root, sandbox_isolation="bwrap")
    report = isolation.probe(settings)
    assert report.tier is None
    assert report.checks["bwrap"] == "bubblewrap is not installed"
    with pytest.raises(IsolationUnavailable) as raised:
        Sandbox(new_workspace(workspace_root), settings=settings)
    message = str(raised.value)
    assert "apt-get install bubblewrap" in message
    assert "BUNSEKI_SANDBOX_UNSAFE_LOCAL=true" in message


def test_unsafe_local_mode_runs_only_when_asked(
    no_bubblewrap: None, workspace_root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BUNSEKI_SANDBOX_UNSAFE_LOCAL", "true")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-canary-unsafe")
    settings = Settings(workspace_root=workspace_root, sandbox_isolation="bwrap", sandbox_timeout_s=3)
    report = isolation.probe(settings)
    assert report.tier == "unsafe"
    assert "NO ISOLATION" in report.reason
    with Sandbox(new_workspace(workspace_root), settings=settings) as box:
        environment = box.run("import os\nprint(sorted(os.environ))", check_policy=False)
        assert "OPENAI_API_KEY" not in environment.stdout  # the environment is still scrubbed
        assert box.run("x = 1").success
        assert box.run("x = 2\n1 / 0").error_type == "ZeroDivisionError"  # rolled back
        assert box.run("import time\ntime.sleep(60)").limit == "wall_time"  # limits still hold
        assert box.run("print(x)").stdout == "1\n"


def test_a_python_installation_under_tmp_is_mounted_after_the_tmpfs(tmp_path: Path) -> None:
    report = IsolationReport(tier="bwrap", reason="", run_as_uid=4242, seccomp=True)
    venv = Path("/tmp/project/.venv")
    interpreter = isolation.Interpreter(str(venv / "bin" / "python"), venv / "inside", [venv])
    argv = isolation.build_launch(report, tmp_path, "{}", [], interpreter).argv
    tmpfs = argv.index("--tmpfs")
    assert argv[tmpfs + 1] == "/tmp"
    # bubblewrap's tmpfs on /tmp would hide anything made there before it
    assert argv.index("/tmp/project") > tmpfs  # the --dir that makes the parent passable
    assert argv.index(str(venv)) > tmpfs

"""A Landlock-tier sandbox never outlives its host, even one SIGKILLed mid-cell.

bubblewrap's PID namespace ends everything in it with its init; the Landlock tier has none, so
a reaper (the zygote, or a supervisor above a worker started on its own) must end what a cell
forked, setsid'd or double-forked away when the host dies without running any code.
"""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from bunseki.sandbox import Sandbox, isolation, new_workspace
from bunseki.sandbox.inside import landlock, procs
from bunseki.sandbox.zygote import Zygote
from bunseki.settings import Settings
from tests.support import available_tiers, processes_in

REPO = Path(__file__).resolve().parents[2]
HOST = Path(__file__).with_name("reaper_host.py")
UP_TIMEOUT_S = 180  # the host imports the stack and starts a sandbox on a loaded machine
GONE_TIMEOUT_S = 60

pytestmark = pytest.mark.skipif("landlock" not in available_tiers(), reason="no Landlock tier on this machine")


@pytest.mark.slow
@pytest.mark.parametrize("start", ["own", "zygote"])
def test_sandbox_ends_when_its_host_is_killed(workspace_root: Path, start: str) -> None:
    # "bomb": the cell's setsid'd, double-forked and plain children, then a fork bomb (each host kill
    # costs the reaper's grace, so the plain case, a part of this one, has no test of its own)
    kind = "bomb"
    settings = Settings(workspace_root=workspace_root, sandbox_isolation="landlock")
    if start == "zygote" and not Zygote.supported(settings, isolation.require(settings)):
        pytest.skip("no zygote here: it needs root, Landlock ABI 6 and seccomp")
    marker = f"reaper-{uuid.uuid4().hex}"
    with _host(workspace_root, marker, start, kind) as (host, _):
        assert _ours(marker, workspace_root), "the cell's processes are not there to be left behind"
        host.kill()
        host.wait()

        left = _wait_gone(marker, workspace_root, GONE_TIMEOUT_S)

        assert not left, "left running after the host was killed:\n" + "\n".join(_describe(pid) for pid in left)


@pytest.mark.slow
def test_an_idle_worker_saves_the_state_its_killed_host_saw(workspace_root: Path) -> None:
    marker = f"reaper-{uuid.uuid4().hex}"
    with _host(workspace_root, marker, "own", "idle") as (host, up):
        workspace = Path(up.split(maxsplit=1)[1].strip())
        host.kill()
        host.wait()
        assert not _wait_gone(marker, workspace_root, GONE_TIMEOUT_S)

    settings = Settings(workspace_root=workspace_root, sandbox_isolation="landlock")
    with Sandbox(workspace, settings=settings) as box:
        assert box.run("print(x, len(pad))").stdout == "42 3000000\n"


@contextmanager
def _host(root: Path, marker: str, start: str, kind: str) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    """reaper_host.py, started, and the line it printed once up; on the way out killed, and all of ours with it."""
    log = root.parent / f"{marker}.log"
    env = {**os.environ, "PYTHONPATH": f"{REPO / 'src'}{os.pathsep}{REPO}"}
    with log.open("w") as errors:
        host = subprocess.Popen(
            [sys.executable, str(HOST), str(root), marker, start, kind],
            stdout=subprocess.PIPE,
            stderr=errors,
            env=env,
            cwd=root.parent,
        )
    try:
        up = _first_line(host, UP_TIMEOUT_S)
        assert up.startswith("UP "), f"the host did not get its sandbox going: {log.read_text()[-3000:]}"
        yield host, up
    finally:
        if host.poll() is None:
            host.kill()
            host.wait()
        assert host.stdout is not None
        host.stdout.close()
        _kill_all(marker, root)  # a leftover fork bomb would ruin the machine for everyone
        log.unlink(missing_ok=True)


def _first_line(process: subprocess.Popen[bytes], timeout: float) -> str:
    assert process.stdout is not None
    ready, _, _ = select.select([process.stdout], [], [], timeout)
    return process.stdout.readline().decode(errors="replace") if ready else ""


def _ours(marker: str, root: Path) -> set[int]:
    """Every process of this test's sandbox: the cell's (marked) and the worker's (root in argv)."""
    return set(processes_in(marker, wait_s=0)) | set(processes_in(root, wait_s=0))


def _wait_gone(marker: str, root: Path, timeout: float) -> set[int]:
    deadline = time.monotonic() + timeout
    while (left := _ours(marker, root)) and time.monotonic() < deadline:
        time.sleep(0.2)
    return left


def _kill_all(marker: str, root: Path) -> None:
    """Stop every process of ours first (so none forks on), then kill them, until none is left."""
    for _ in range(50):
        found = _ours(marker, root)
        if not found:
            return
        for number in (signal.SIGSTOP, signal.SIGKILL):
            for pid in found:
                try:
                    os.kill(pid, number)
                except ProcessLookupError:
                    pass
        time.sleep(0.1)


def _describe(pid: int) -> str:
    try:
        command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        parent = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1]
    except OSError:
        return f"{pid} (gone)"
    return f"{pid} (parent {parent}): {command[:160]}"


def test_a_cell_cannot_kill_its_reaper(workspace_root: Path) -> None:
    if os.geteuid() != 0 and landlock.abi_version() < 6:
        pytest.skip("not covered: the reaper is then the cell's own uid, and signals are scoped from ABI 6 on")
    settings = Settings(workspace_root=workspace_root, sandbox_isolation="landlock")
    with Sandbox(new_workspace(workspace_root), settings=settings) as box:
        reaper = box.pid
        assert reaper is not None and "reaper.py" in _describe(reaper)

        result = box.run(f"import os, signal\nos.kill({reaper}, signal.SIGKILL)", check_policy=False)

        assert not result.success and result.error_type == "PermissionError", result.error
        assert box.pid == reaper and box.run("print(6 * 7)").stdout == "42\n"
    assert not processes_in(box.workspace)  # and close() ended it with the worker


def test_a_zygotes_workers_outlive_its_close_under_its_reaper(workspace_root: Path) -> None:
    settings = Settings(workspace_root=workspace_root, sandbox_isolation="landlock")
    report = isolation.require(settings)
    if not Zygote.supported(settings, report):
        pytest.skip("no zygote here: it needs root, Landlock ABI 6 and seccomp")
    zygote = Zygote(settings, report)
    reaper = zygote.start()
    box = Sandbox(new_workspace(workspace_root), settings=settings, zygote=zygote)
    try:
        box.run("kept = 41")
        assert box.pid in procs.descendants(reaper)

        zygote.close()  # as before the reaper: the workers it forked go on

        assert box.run("kept += 1\nprint(kept)").stdout == "42\n"
        assert box.pid in procs.descendants(reaper)  # still below the reaper, which lingers for them
        box.close()
        assert not processes_in(workspace_root)  # the reaper went with the last of them
    finally:
        box.close()
        zygote.close()


def test_a_zygote_that_died_below_its_lingering_reaper_is_started_again(workspace_root: Path) -> None:
    settings = Settings(workspace_root=workspace_root, sandbox_isolation="landlock")
    report = isolation.require(settings)
    if not Zygote.supported(settings, report):
        pytest.skip("no zygote here: it needs root, Landlock ABI 6 and seccomp")
    zygote = Zygote(settings, report)
    first = Sandbox(new_workspace(workspace_root), settings=settings, zygote=zygote)
    second = Sandbox(new_workspace(workspace_root), settings=settings, zygote=zygote)
    try:
        first.run("kept = 1")
        gone = os.pidfd_open(int(zygote.ready["pid"]))
        signal.pidfd_send_signal(gone, signal.SIGKILL)  # its reaper stays, for the worker it forked
        assert select.select([gone], [], [], GONE_TIMEOUT_S)[0]
        os.close(gone)

        assert second.run("print(2)").stdout == "2\n"

        assert second.ready.get("zygote") and first.run("print(kept)").stdout == "1\n"
    finally:
        second.close()
        first.close()
        zygote.close()
    assert not processes_in(workspace_root)

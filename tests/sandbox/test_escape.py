"""Hostile cells: each must be contained, the worker must keep answering, and the state from
before the cell must be intact. The static policy is switched off: it is not the boundary.

Run on every isolation tier this machine offers (bubblewrap; Landlock + seccomp), and as root
also from a project in a private (0700) directory, like /root, with its default workspace.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import shutil
import socket
import tempfile
import textwrap
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pandas as pd
import pytest

from bunseki.domain import ExecutionResult
from bunseki.sandbox import Limits, Sandbox, add_data_file, isolation, new_workspace, remove_workspace
from bunseki.sandbox.zygote import Zygote
from bunseki.settings import Settings
from bunseki.state import DataState
from tests.support import available_tiers, wait_until_saved

SECRET = "sk-canary-7f3a9c2e"
TIERS = available_tiers()
# As root the sandbox user is someone else: a private project directory is then out of its reach.
PLACES = ["shared", "private"] if os.geteuid() == 0 else ["shared"]
# How the worker starts: on its own, or forked from a zygote that serves the workspace root.
ARENAS = [(tier, place, "own") for tier in TIERS for place in PLACES]
ARENAS += [(tier, "shared", "zygote") for tier in TIERS]
pytestmark = pytest.mark.skipif(not TIERS, reason="no isolation tier is available on this machine")


@dataclass
class Host:
    """What lies outside the sandbox: files, a secret, listening sockets."""

    outside: Path
    secret_file: Path
    other_workspace: Path
    tcp_port: int
    udp_port: int
    tcp_hits: list[bytes]
    udp_hits: list[bytes]


@dataclass
class Arena:
    box: Sandbox
    host: Host
    data_copy: Path
    data_digest: str
    neighbour: Sandbox | None = None  # another session's sandbox from the same zygote

    def hostile(self, code: str, **kwargs: object) -> ExecutionResult:
        result = self.box.run(textwrap.dedent(code), check_policy=False, **kwargs)  # type: ignore[arg-type]
        # A liveness check, not a limit: after a restart, the arena's 4 s would also time the restore.
        check = self.box.run("print(canary['n'], len(frame))", check_policy=False, timeout=60)
        assert check.success, f"the worker stopped answering: {check.error}"
        assert check.stdout == "7 3\n", f"state changed: {check.stdout!r}"
        assert hashlib.sha256(self.data_copy.read_bytes()).hexdigest() == self.data_digest
        return result


def _write_png(path: Path) -> None:
    """A 1 x 4242 image, recognisable by its width."""
    import matplotlib.pyplot as plt
    import numpy as np

    plt.imsave(path, np.ones((1, 4242)), cmap="gray", vmin=0, vmax=1, format="png")


def _serve_tcp(hits: list[bytes]) -> int:
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()

    def accept() -> None:
        while True:
            connection, _ = server.accept()
            hits.append(connection.recv(100))
            connection.close()

    threading.Thread(target=accept, daemon=True).start()
    return int(server.getsockname()[1])


def _serve_udp(hits: list[bytes]) -> int:
    server = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    server.bind(("127.0.0.1", 0))
    threading.Thread(target=lambda: hits.append(server.recv(100)), daemon=True).start()
    return int(server.getsockname()[1])


@pytest.fixture(scope="module", params=ARENAS, ids="-".join)
def arena(request: pytest.FixtureRequest) -> Iterator[Arena]:
    tier, place, start = request.param
    probe = Settings(sandbox_isolation=tier, workspace_root=Path(tempfile.gettempdir()))  # a reachable root
    if start == "zygote" and not Zygote.supported(probe, isolation.require(probe)):
        pytest.skip("no zygote here: it needs root, Landlock ABI 6 and seccomp")  # before any setenv
    monkeypatch = pytest.MonkeyPatch()
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)  # must never be visible inside
    base = Path(tempfile.mkdtemp(prefix="bunseki-escape-"))
    base.chmod(0o700 if place == "private" else 0o711)
    root = base / "project" if place == "private" else base
    root.mkdir(exist_ok=True)
    outside = root / "outside"
    outside.mkdir(mode=0o777)
    outside.chmod(0o777)  # writable by anyone: only the sandbox may stop a write here
    secret_file = outside / "secret.txt"
    secret_file.write_text(SECRET)
    (outside / "secret.pkl").write_bytes(pickle.dumps({"token": SECRET}))
    _write_png(outside / "secret.png")
    for path in outside.iterdir():
        path.chmod(0o644)
    workspaces = root / ("workspace" if place == "private" else "workspaces")  # the default is ./workspace
    other = new_workspace(workspaces)
    (other / "other-session.csv").write_text(f"token\n{SECRET}\n")
    tcp_hits: list[bytes] = []
    udp_hits: list[bytes] = []
    host = Host(outside, secret_file, other, _serve_tcp(tcp_hits), _serve_udp(udp_hits), tcp_hits, udp_hits)
    settings = Settings(workspace_root=workspaces, sandbox_isolation=tier)
    limits = Limits(timeout_s=4, cpu_s=3, memory_mb=400, disk_mb=200, max_processes=48, output_bytes=4000)
    zygote = Zygote(settings, isolation.require(settings)) if start == "zygote" else None
    box = Sandbox(new_workspace(workspaces), settings=settings, limits=limits, zygote=zygote)
    neighbour = Sandbox(other, settings=settings, limits=limits, zygote=zygote) if zygote else None
    source = root / "売上.csv"
    source.write_text("地域,売上\n関東,100\n近畿,80\n九州,60\n", encoding="utf-8")
    try:  # a start that fails must not leave the secret in the environment of later tests
        with box:
            assert zygote is None or box.ready.get("zygote")
            data_copy = add_data_file(box.workspace, source)
            setup = box.run("import pandas as pd\nframe = pd.read_csv('data/売上.csv')\ncanary = {'n': 7}")
            assert setup.success and setup.cell is not None
            wait_until_saved(box, setup.cell)  # a test that kills the worker finds the canary in the restored state
            if neighbour is not None:
                assert neighbour.run("secret = open('other-session.csv').read()", check_policy=False).success
            yield Arena(box, host, data_copy, hashlib.sha256(data_copy.read_bytes()).hexdigest(), neighbour)
    finally:
        if neighbour is not None:
            neighbour.close()
        if zygote is not None:
            zygote.close()
        monkeypatch.undo()
        remove_workspace(box.workspace)
        shutil.rmtree(base, ignore_errors=True)


def _no_secret(result: ExecutionResult) -> None:
    assert SECRET not in result.stdout + result.stderr + (result.error or "")


# --- reading outside the workspace -------------------------------------------------------

READS = {
    "open": ("secret.txt", "print(open({path!r}).read())"),
    "pandas": ("secret.txt", "import pandas as pd\nprint(pd.read_csv({path!r}, header=None))"),
    "numpy": ("secret.txt", "import numpy as np\nprint(np.loadtxt({path!r}, dtype=str))"),
    "pickle": ("secret.pkl", "import pickle\nprint(pickle.load(open({path!r}, 'rb')))"),
    "matplotlib": ("secret.png", "import matplotlib.pyplot as plt\nprint(plt.imread({path!r}).shape)"),
    "proc_root": ("secret.txt", "print(open('/proc/1/root' + {path!r}).read())"),
}


@pytest.mark.parametrize("how", sorted(READS))
def test_cannot_read_a_secret_file_outside(arena: Arena, how: str) -> None:
    name, code = READS[how]
    result = arena.hostile(code.format(path=str(arena.host.outside / name)))
    assert not result.success
    _no_secret(result)
    assert "4242" not in result.stdout  # the width of secret.png


def test_cannot_read_system_files(arena: Arena) -> None:
    result = arena.hostile("print(open('/etc/shadow').read())\nprint(open('/etc/passwd').read())")
    assert not result.success
    assert "root:" not in result.stdout


def test_cannot_list_other_sessions_or_homes(arena: Arena) -> None:
    other = arena.host.other_workspace
    result = arena.hostile(f"import os\nprint(os.listdir({str(other)!r}))\nprint(os.listdir('/root'))")
    assert not result.success
    _no_secret(result)
    assert "other-session.csv" not in result.stdout


def test_symlink_in_the_workspace_does_not_reach_outside(arena: Arena) -> None:
    result = arena.hostile(
        f"import os\nos.symlink({str(arena.host.secret_file)!r}, 'link.txt')\nprint(open('link.txt').read())"
    )
    assert not result.success
    _no_secret(result)
    assert all(not path.is_symlink() for path in result.artifacts)
    (arena.box.workspace / "link.txt").unlink(missing_ok=True)


def test_hardlink_to_a_file_outside_fails(arena: Arena) -> None:
    result = arena.hostile(f"import os\nos.link({str(arena.host.secret_file)!r}, 'hard.txt')")
    assert not result.success
    assert not (arena.box.workspace / "hard.txt").exists()


# --- writing outside the workspace --------------------------------------------------------

WRITES = {
    "open": "open({path!r}, 'w').write('x')",
    "pandas": "import pandas as pd\npd.DataFrame({{'a': [1]}}).to_csv({path!r})",
    "numpy": "import numpy as np\nnp.save({path!r}, np.arange(3))",
    "matplotlib": "import matplotlib.pyplot as plt\nplt.plot([1])\nplt.savefig({path!r} + '.png')",
    "pickle": "import pickle\npickle.dump({{'a': 1}}, open({path!r}, 'wb'))",
}


@pytest.mark.parametrize("how", sorted(WRITES))
def test_cannot_write_outside(arena: Arena, how: str) -> None:
    target = arena.host.outside / f"escaped-{how}.out"
    arena.hostile(WRITES[how].format(path=str(target)))
    assert not target.exists()
    assert not list(arena.host.outside.glob("escaped*"))


def test_cannot_modify_the_python_installation(arena: Arena) -> None:
    import pandas

    target = Path(pandas.__file__).parent / "escaped.py"
    result = arena.hostile(f"open({str(target)!r}, 'w').write('import os')")
    assert not result.success
    assert not target.exists()


def test_cannot_write_the_uploaded_data(arena: Arena) -> None:
    result = arena.hostile("open('data/売上.csv', 'a').write('tampered')\n")
    assert not result.success  # Arena.hostile also checks the file's digest
    for code in ("open('data/forged.csv', 'w').write('a,b')", "import os\nos.rename('data/売上.csv', 'data/x.csv')"):
        assert not arena.hostile(code).success
    assert sorted(p.name for p in (arena.box.workspace / "data").iterdir()) == ["売上.csv"]


def test_cannot_write_the_saved_data_states(arena: Arena) -> None:
    snapshots = arena.box.workspace / "snapshots"
    state = DataState(pd.DataFrame({"n": [1, 2]}), arena.box.workspace)
    relative = state.write_snapshot()
    path = arena.box.workspace / relative
    before, files = path.read_bytes(), sorted(snapshots.iterdir())
    for code in (
        f"open({relative!r}, 'ab').write(b'tampered')",
        "open('snapshots/forged.parquet', 'wb').write(b'forged')",
        f"import os\nos.replace({relative!r}, 'moved.parquet')",
        "open('snapshots/current.json', 'w').write('{}')",
    ):
        assert not arena.hostile(code).success
    assert path.read_bytes() == before
    assert sorted(snapshots.iterdir()) == files


def test_cannot_make_the_data_writable_first(arena: Arena) -> None:
    if arena.box.isolation.tier == "landlock" and arena.box.isolation.run_as_uid == os.geteuid():
        pytest.skip("Landlock as the files' own user cannot stop a chmod; bwrap's read-only mount does")
    code = "import os\nos.chmod('data/売上.csv', 0o666)\nopen('data/売上.csv', 'a').write('tampered')\n"
    assert not arena.hostile(code).success


def test_pickle_payload_runs_only_inside(arena: Arena) -> None:
    target = arena.host.outside / "escaped-pickle-rce"
    payload = f"cos\nsystem\n(S'touch {target}'\ntR."
    arena.hostile(f"import pickle\npickle.loads({payload.encode()!r})")
    assert not target.exists()


# --- the environment and other processes --------------------------------------------------


def test_environment_holds_no_keys(arena: Arena) -> None:
    result = arena.hostile("import os\nprint(dict(os.environ))")
    assert result.success
    assert "OPENAI_API_KEY" not in result.stdout
    _no_secret(result)


def test_proc_environ_of_every_visible_process_holds_no_keys(arena: Arena) -> None:
    result = arena.hostile(
        """
        import os
        found = []
        for pid in [p for p in os.listdir('/proc') if p.isdigit()] + ['self', '1', str(os.getppid())]:
            try:
                found.append(open(f'/proc/{pid}/environ', 'rb').read().decode(errors='replace'))
            except OSError:
                pass
        print('\\n'.join(found))
        """
    )
    _no_secret(result)


def test_controller_process_is_out_of_reach(arena: Arena) -> None:
    result = arena.hostile(f"print(open('/proc/{os.getpid()}/environ', 'rb').read())")
    assert not result.success
    _no_secret(result)


def test_cannot_signal_the_controller(arena: Arena) -> None:
    result = arena.hostile(f"import os, signal\nos.kill({os.getpid()}, signal.SIGTERM)")
    assert not result.success  # ESRCH (other PID namespace) or EPERM (Landlock scope)


def test_another_session_of_the_same_zygote_is_out_of_reach(arena: Arena) -> None:
    if arena.neighbour is None or arena.neighbour.pid is None:
        pytest.skip("only sandboxes forked from one zygote live side by side")
    holder = arena.neighbour.ready["pid"]  # as the sandboxes' PID namespace numbers it
    for code in (
        f"import os, signal\nos.kill({holder}, signal.SIGKILL)",
        f"print(open('/proc/{holder}/environ').read())",
        f"import os\nprint(os.listdir('/proc/{holder}/cwd'))",
        f"print(open('/proc/{holder}/cwd/other-session.csv').read())",
    ):
        result = arena.hostile(code)
        assert not result.success, code
        _no_secret(result)
    assert arena.neighbour.run("print(secret.strip()[-8:])", check_policy=False).stdout == SECRET[-8:] + "\n"


def test_kill_everything_is_refused(arena: Arena) -> None:
    result = arena.hostile("import os, signal\nos.kill(-1, signal.SIGKILL)")
    assert not result.success


# --- network ------------------------------------------------------------------------------


def test_no_tcp_to_the_host(arena: Arena) -> None:
    port = arena.host.tcp_port
    result = arena.hostile(f"import socket\nsocket.create_connection(('127.0.0.1', {port}), timeout=2).send(b'hi')")
    assert not result.success
    assert arena.host.tcp_hits == []


def test_no_http_through_urllib(arena: Arena) -> None:
    port = arena.host.tcp_port
    result = arena.hostile(f"import urllib.request\nurllib.request.urlopen('http://127.0.0.1:{port}/', timeout=2)")
    assert not result.success
    assert arena.host.tcp_hits == []


def test_no_udp_to_the_host(arena: Arena) -> None:
    port = arena.host.udp_port
    result = arena.hostile(
        f"import socket\ns = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)\ns.sendto(b'hi', ('127.0.0.1', {port}))"
    )
    assert not result.success
    assert arena.host.udp_hits == []


def test_no_dns(arena: Arena) -> None:
    result = arena.hostile("import socket\nprint(socket.getaddrinfo('pypi.org', 443))")
    assert not result.success


# --- running programs ---------------------------------------------------------------------


def test_subprocess_stays_inside(arena: Arena) -> None:
    target = arena.host.outside / "escaped-subprocess"
    result = arena.hostile(
        "import subprocess\n"
        f"print(subprocess.run(['sh', '-c', 'cat {arena.host.secret_file}; touch {target}'],"
        " capture_output=True, text=True))"
    )
    _no_secret(result)
    assert not target.exists()


def test_os_system_stays_inside(arena: Arena) -> None:
    target = arena.host.outside / "escaped-system"
    result = arena.hostile(f"import os\nos.system('cat {arena.host.secret_file} > leaked.txt; touch {target}')")
    assert not target.exists()
    leaked = arena.box.workspace / "leaked.txt"
    assert not leaked.exists() or SECRET not in leaked.read_text()
    _no_secret(result)


def test_exec_replacing_the_process_rolls_back(arena: Arena) -> None:
    result = arena.hostile("import os\ncanary['n'] = 99\nos.execv('/usr/bin/true', ['true'])")
    assert not result.success
    assert result.error_type == "ProcessExited"


def test_ctypes_libc_system_stays_inside(arena: Arena) -> None:
    target = arena.host.outside / "escaped-ctypes"
    arena.hostile(f"import ctypes\nctypes.CDLL(None).system(b'touch {target}')")
    assert not target.exists()


def test_ctypes_segfault_rolls_back(arena: Arena) -> None:
    result = arena.hostile("import ctypes\ncanary['n'] = 0\nctypes.string_at(0)")
    assert not result.success
    assert result.error_type == "ProcessCrashed"
    assert "SIGSEGV" in (result.error or "")


def test_ptrace_is_denied(arena: Arena) -> None:
    result = arena.hostile(
        "import ctypes, os\nlibc = ctypes.CDLL(None, use_errno=True)\n"
        "r = libc.ptrace(16, os.getppid(), 0, 0)\n"  # PTRACE_ATTACH to the holder
        "assert r == 0, ctypes.get_errno()"
    )
    assert not result.success


def test_killing_the_holder_restarts_with_state(arena: Arena) -> None:
    result = arena.hostile("import os, signal, time\nos.kill(os.getppid(), signal.SIGKILL)\ntime.sleep(10)")
    assert not result.success
    assert result.restarted


def test_closing_every_descriptor_rolls_back(arena: Arena) -> None:
    result = arena.hostile("import os\ncanary['n'] = 1\nos.closerange(0, 4096)")
    assert not result.success


def test_writing_garbage_to_every_descriptor_rolls_back(arena: Arena) -> None:
    result = arena.hostile(
        """
        import os
        canary['n'] = 2
        for fd in range(3, 256):
            try:
                os.write(fd, b'\\xff' * 64)
            except OSError:
                pass
        """
    )
    assert not result.success


# --- resources ----------------------------------------------------------------------------


def _sandbox_processes() -> int:
    count = 0
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                count += b"marker-4242" in Path(f"/proc/{entry}/cmdline").read_bytes()
            except OSError:
                pass
    return count


def test_fork_bomb_is_contained(arena: Arena) -> None:
    result = arena.hostile("import os\ncanary['n'] = 3\nwhile True:\n    os.fork()")
    assert not result.success
    leftover = arena.box.run(
        "import os\nprint(len([p for p in os.listdir('/proc') if p.isdigit()]))", check_policy=False
    )
    assert leftover.success


def test_thread_bomb_is_contained(arena: Arena) -> None:
    result = arena.hostile(
        "import threading, time\ncanary['n'] = 4\n"
        "for _ in range(100000):\n    threading.Thread(target=time.sleep, args=(60,), daemon=True).start()"
    )
    assert not result.success


def test_setsid_escapee_is_killed(arena: Arena) -> None:
    result = arena.hostile(
        """
        import os
        if os.fork() == 0:
            os.setsid()
            if os.fork() == 0:
                os.execv('/usr/bin/sleep', ['sleep', '1000', 'marker-4242'])
            os._exit(0)
        print('parent returns')
        """
    )
    assert result.success
    assert _sandbox_processes() == 0


def test_memory_bomb_at_once(arena: Arena) -> None:
    result = arena.hostile("import numpy as np\ncanary['n'] = 5\nbig = np.ones(3_000_000_000)")
    assert not result.success
    assert result.limit == "memory"


def test_memory_bomb_gradual(arena: Arena) -> None:
    # A generous wall limit: on a loaded machine the memory must still be what stops it.
    result = arena.hostile(
        "import numpy as np\nchunks = []\nwhile True:\n    chunks.append(np.ones(5_000_000))", timeout=30
    )
    assert not result.success
    assert result.limit == "memory"


def test_cpu_spin_is_stopped(arena: Arena) -> None:
    result = arena.hostile("canary['n'] = 6\nwhile True:\n    pass")
    assert not result.success
    assert result.limit in ("cpu_time", "wall_time")
    assert result.duration_s < 8


def test_endless_sleep_is_stopped(arena: Arena) -> None:
    result = arena.hostile("import time\ntime.sleep(3600)")
    assert result.limit == "wall_time"
    assert result.duration_s < 8


def test_stdout_flood_is_cut(arena: Arena) -> None:
    result = arena.hostile("while True:\n    print('x' * 100_000)")
    assert not result.success
    assert result.limit in ("output", "wall_time")
    assert len(result.stdout) < 5000


def test_stderr_flood_is_cut(arena: Arena) -> None:
    result = arena.hostile("import sys\nfor _ in range(200_000):\n    sys.stderr.write('e' * 1000)")
    assert len(result.stderr) < 5000


def test_hundreds_of_figures_are_capped(arena: Arena) -> None:
    # hundreds, not thousands: creating those alone can pass the 3 s CPU limit on a loaded machine
    result = arena.hostile("import matplotlib.pyplot as plt\nfor i in range(300):\n    plt.figure()")
    assert result.success, result.error
    assert len(result.artifacts) <= arena.box.limits.max_artifacts
    assert any("were not saved" in note for note in result.notes)
    for path in result.artifacts:
        path.unlink()


def test_filling_the_disk_is_stopped_and_cleaned(arena: Arena) -> None:
    result = arena.hostile(
        "data = b'x' * 5_000_000\nfor i in range(10_000):\n    open(f'fill-{i}.bin', 'wb').write(data)",
        timeout=30,  # the disk limit, not the clock, must stop it on a loaded machine
    )
    assert not result.success
    assert result.limit == "disk"
    assert not list(arena.box.workspace.glob("fill-*.bin"))


def test_one_huge_file_is_refused(arena: Arena) -> None:
    result = arena.hostile(
        "with open('huge.bin', 'wb') as f:\n    for _ in range(1000):\n        f.write(b'x' * 1_000_000)"
    )
    assert not result.success
    assert result.limit == "disk"
    assert not (arena.box.workspace / "huge.bin").exists()


def test_recursion_is_an_ordinary_error(arena: Arena) -> None:
    result = arena.hostile("def f(n):\n    return f(n + 1)\nf(0)")
    assert result.error_type == "RecursionError"


def test_exit_is_refused(arena: Arena) -> None:
    result = arena.hostile("import sys\ncanary['n'] = 8\nsys.exit(0)")
    assert not result.success
    assert result.error_type == "SystemExit"

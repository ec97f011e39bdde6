"""Choosing the isolation tier, once per process, and building the command that enters it.

Tiers, strongest first:

- ``bwrap``: bubblewrap in fresh PID, network, IPC and UTS namespaces (and a user namespace
  when we are not root). Only /usr, the Python installation and the workspace (at the fixed
  path ``/workspace``) are visible; only the workspace is writable; there is no network at all.
- ``landlock``: where user namespaces are unavailable, Landlock confines the filesystem view
  and TCP, and the seccomp filter removes every socket. With no PID namespace to end them all,
  a reaper (``inside/reaper.py``) above each worker or zygote ends its processes with the host.
- ``unsafe``: resource limits only. Used only when ``BUNSEKI_SANDBOX_UNSAFE_LOCAL`` is set.

Generated code never runs as root: when Bunseki runs as root the sandbox drops to
``BUNSEKI_SANDBOX_UID``. Under bubblewrap, root sets the mounts up with its own rights and the
worker drops to that uid inside (``setpriv``), so no directory above the workspace or the
Python installation has to be reachable by the sandbox user: a project under a 0700 home works.
The Landlock tier has no mount namespace; see `staging` for how it reaches such places.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path
from typing import IO

from bunseki.errors import IsolationUnavailable, SandboxStartError
from bunseki.sandbox import launcher, staging
from bunseki.sandbox.inside import landlock
from bunseki.sandbox.models import IsolationReport, Tier
from bunseki.sandbox.workspace import READ_ONLY_DIRS
from bunseki.settings import Settings

INSIDE_DIR = Path(__file__).resolve().parent / "inside"
ROOT_LINKS = ("bin", "sbin", "lib", "lib32", "lib64", "libx32")
INNER_WORKSPACE = "/workspace"  # where bubblewrap shows the session's workspace
ZYGOTE_ROOT = "/workspaces"  # where a zygote's bubblewrap shows the workspace root
ZYGOTE_HOME = "/zygote"  # and the zygote's own directory (matplotlib's cache, its temporary files)
SETPRIV = "/usr/bin/setpriv"
# Root's bubblewrap keeps only what dropping to the sandbox uid needs; setpriv then clears them all.
DROP_CAPS = ("CAP_SETUID", "CAP_SETGID", "CAP_SETPCAP")
ETC_FILES = ("/etc/ld.so.cache", "/etc/fonts", "/etc/localtime")
TMP_SIZE = 64 * 1024 * 1024
FIX_USERNS = (
    "install bubblewrap (apt-get install bubblewrap) and allow unprivileged user namespaces "
    "(sysctl kernel.unprivileged_userns_clone=1; on Ubuntu also "
    "kernel.apparmor_restrict_unprivileged_userns=0)"
)


def sandbox_uid(settings: Settings) -> int:
    """The uid generated code runs as: ours, or the configured one when we are root."""
    return settings.sandbox_uid if os.geteuid() == 0 else os.geteuid()


def probe(settings: Settings) -> IsolationReport:
    """Find the strongest tier that works here, as the settings allow. Cached per process."""
    return _probe(
        settings.sandbox_isolation,
        settings.sandbox_unsafe_local,
        sandbox_uid(settings),
        settings.sandbox_seccomp,
    )


def require(settings: Settings) -> IsolationReport:
    """Like `probe`, but raise `IsolationUnavailable` with what to do when no tier works."""
    report = probe(settings)
    if report.tier is None:
        raise IsolationUnavailable(report.reason)
    return report


@cache
def _probe(choice: str, unsafe_ok: bool, uid: int, want_seccomp: bool) -> IsolationReport:
    checks: dict[str, str] = {}
    seccomp = want_seccomp and _seccomp_available(checks)
    if not want_seccomp:
        checks["seccomp"] = "disabled by BUNSEKI_SANDBOX_SECCOMP=false"
    bwrap_ok = choice in ("auto", "bwrap") and _bwrap_works(uid, checks)
    landlock_ok = choice in ("auto", "landlock") and _landlock_works(uid, seccomp, checks)
    tier: Tier | None = None
    if bwrap_ok:
        tier, reason = "bwrap", f"bubblewrap works here ({checks['bwrap']})"
    elif landlock_ok:
        tier, reason = (
            "landlock",
            f"Landlock + seccomp ({checks['landlock']}); bwrap: {checks.get('bwrap', 'not tried')}",
        )
    elif unsafe_ok:
        tier, reason = (
            "unsafe",
            (
                "NO ISOLATION: BUNSEKI_SANDBOX_UNSAFE_LOCAL is set and no tier works "
                f"(bwrap: {checks.get('bwrap', 'not tried')}; "
                f"landlock: {checks.get('landlock', 'not tried')}). "
                "Generated code can read your files and reach the network."
            ),
        )
    else:
        tried = "; ".join(f"{name}: {finding}" for name, finding in checks.items())
        reason = (
            f"No sandbox isolation works on this machine ({tried}). To fix it, {FIX_USERNS}, "
            "or use a kernel with Landlock (Linux ≥ 5.13) and libseccomp. Only if every person "
            "and file is trusted, set BUNSEKI_SANDBOX_UNSAFE_LOCAL=true to run without isolation."
        )
    return IsolationReport(tier=tier, reason=reason, run_as_uid=uid, seccomp=seccomp, checks=checks)


def _seccomp_available(checks: dict[str, str]) -> bool:
    try:
        import pyseccomp  # noqa: F401  (finds and loads libseccomp)
    except (ImportError, OSError, RuntimeError) as exc:
        checks["seccomp"] = f"unavailable ({exc}); install libseccomp2"
        return False
    checks["seccomp"] = "libseccomp available"
    return True


def _bwrap_works(uid: int, checks: dict[str, str]) -> bool:
    binary = shutil.which("bwrap")
    if binary is None:
        checks["bwrap"] = "bubblewrap is not installed"
        return False
    privileged = _drop_to(uid) is not None
    if privileged and not Path(SETPRIV).exists():
        checks["bwrap"] = f"{SETPRIV} is missing (util-linux); root needs it to drop to uid {uid}"
        return False
    trial = [binary, *namespaces(privileged), "--ro-bind", "/usr", "/usr", *root_links()]
    trial += ["--proc", "/proc", "--dev", "/dev", "--", *drop_command(uid, privileged), "/usr/bin/true"]
    try:
        done = subprocess.run(
            trial,
            env={},
            capture_output=True,
            text=True,
            timeout=20,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        checks["bwrap"] = f"could not run bubblewrap: {exc}"
        return False
    if done.returncode != 0:
        checks["bwrap"] = f"bubblewrap failed: {done.stderr.strip() or done.returncode}"
        return False
    version = subprocess.run([binary, "--version"], capture_output=True, text=True, check=False)
    how = "mounts set up as root, dropping to" if privileged else "with user namespaces, as"
    checks["bwrap"] = f"{version.stdout.strip() or 'bubblewrap'}, {how} uid {uid}"
    return True


def namespaces(privileged: bool) -> list[str]:
    """Root needs no user namespace (it may mount); anyone else gets one from bubblewrap."""
    if not privileged:
        return ["--unshare-all", "--die-with-parent"]
    shared = ["--unshare-ipc", "--unshare-pid", "--unshare-net", "--unshare-uts", "--unshare-cgroup-try"]
    return [*shared, "--die-with-parent", *(flag for cap in DROP_CAPS for flag in ("--cap-add", cap))]


def drop_command(uid: int, privileged: bool) -> list[str]:
    """The prefix that leaves root for ``uid`` inside the sandbox, with no capability left."""
    if not privileged:
        return []
    return [
        SETPRIV,
        f"--reuid={uid}",
        f"--regid={uid}",
        "--clear-groups",
        "--inh-caps=-all",
        "--bounding-set=-all",
        "--no-new-privs",
    ]


def _landlock_works(uid: int, seccomp: bool, checks: dict[str, str]) -> bool:
    abi = landlock.abi_version()
    if abi < 1:
        checks["landlock"] = "the kernel has no Landlock (Linux ≥ 5.13 with lsm=landlock)"
        return False
    if not seccomp:
        checks["landlock"] = f"ABI {abi}, but without seccomp UDP and DNS would stay open"
        return False
    staged = ""
    if uid != os.geteuid():
        unreachable = [str(path) for path in python_paths() if not staging.reachable(path, uid)]
        if unreachable:
            try:
                where = staging.root_dir(uid)
            except OSError as exc:
                checks["landlock"] = f"ABI {abi}, but uid {uid} cannot read {', '.join(unreachable)}: {exc}"
                return False
            staged = f"; uid {uid} cannot reach {', '.join(unreachable)}, so it runs from copies under {where}"
    checks["landlock"] = f"ABI {abi}" + ("" if abi >= 6 else " (signals not scoped before ABI 6)") + staged
    return True


def _drop_to(uid: int) -> int | None:
    """The uid to switch to before exec: ``uid`` when we are root, else None (stay as we are)."""
    return uid if os.geteuid() == 0 and uid != 0 else None


def root_links() -> list[str]:
    """Reproduce /bin, /lib… as the host has them: symlinks into /usr, or read-only binds."""
    args: list[str] = []
    for name in ROOT_LINKS:
        path = Path("/") / name
        if path.is_symlink():
            args += ["--symlink", os.readlink(path), str(path)]
        elif path.is_dir():
            args += ["--ro-bind", str(path), str(path)]
    return args


def python_paths() -> list[Path]:
    """Directories the worker's interpreter needs: the base installation, the venv, our code."""
    wanted = [Path(sys.base_prefix), Path(sys.prefix), INSIDE_DIR]
    paths: list[Path] = []
    for path in wanted:
        resolved = path.resolve()
        if resolved.is_relative_to("/usr") or any(resolved.is_relative_to(p) for p in paths):
            continue
        paths.append(resolved)
    return paths


@dataclass
class Launch:
    """How to start one worker: its argv, environment and the fds it inherits."""

    argv: list[str]
    env: dict[str, str]
    pass_fds: list[int]
    user: int | None = None  # switch to this uid (and gid) before exec, with no extra groups
    # Tiers without a PID namespace: started below a reaper (inside/reaper.py) that ends all its processes
    # when we end, however we end; ``linger``: not as soon as it ends (a zygote's workers outlive its close).
    reaped: bool = False
    linger: bool = False

    def start(self, cwd: Path, stderr: IO[bytes] | int, what: str) -> subprocess.Popen[bytes]:
        """Start it in a session of its own; SandboxStartError (saying ``what``) if it cannot.

        The process returned is the reaper, when there is one: ending it (and what is below) ends the sandbox.
        """
        argv, env, user = self.argv, self.env, self.user
        if self.reaped:
            spec = {"host": os.getpid(), "user": user, "env": env, "fds": self.pass_fds, "linger": self.linger}
            argv = [sys.executable, "-I", "-S", "-B", str(INSIDE_DIR / "reaper.py"), json.dumps(spec), *argv]
            env, user = {}, None  # the reaper stays our user: a cell cannot signal it
        try:
            return launcher.on_launcher(  # bwrap dies with the thread that started it: a lasting one
                lambda: subprocess.Popen(
                    argv,
                    env=env,
                    pass_fds=self.pass_fds,
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.DEVNULL,
                    stderr=stderr,
                    start_new_session=True,
                    cwd=cwd,
                    user=user,
                    group=user,
                    extra_groups=None if user is None else [],
                )
            )
        except OSError as exc:
            raise SandboxStartError(f"could not start the sandbox {what}: {exc}") from exc


@dataclass(frozen=True)
class Interpreter:
    """The Python the worker runs: its executable, the worker's code, and what it reads."""

    executable: str
    inside: Path
    paths: list[Path] = field(default_factory=list)

    @classmethod
    def current(cls) -> Interpreter:
        return cls(sys.executable, INSIDE_DIR, python_paths())

    def installations(self) -> list[Path]:
        """The Python installation directories (a venv and its base), without our own code."""
        return [path for path in self.paths if path != self.inside.resolve()]

    def moved(self, copies: dict[Path, Path], inside: Path) -> Interpreter:
        """The same interpreter run from reachable copies of its directories."""
        executable, prefix = Path(self.executable), Path(sys.prefix)
        copy = copies.get(prefix.resolve())
        if copy is not None and executable.is_relative_to(prefix):
            executable = copy / executable.relative_to(prefix)
        paths = [copies.get(path, path) for path in self.installations()]
        return Interpreter(str(executable), inside, [*paths, inside])


def landlock_rules(writable: list[str], interpreter: Interpreter) -> list[tuple[str, str]]:
    """What a sandbox process may touch: the system and Python read-only, ``writable`` read-write."""
    rules = [("/usr", "rx"), ("/bin", "rx"), ("/lib", "rx"), ("/lib64", "rx"), ("/sbin", "rx")]
    rules += [(path, "r") for path in ETC_FILES]
    rules += [(str(path), "rx") for path in interpreter.paths]
    rules += [("/proc", "r"), ("/sys/devices/system/cpu", "r"), ("/sys/fs/cgroup", "r")]
    # Not /dev/shm: it is shared with every process of the user (joblib then runs n_jobs=1).
    rules += [("/dev/null", "dev"), ("/dev/zero", "dev"), ("/dev/urandom", "dev")]
    rules += [(path, "rw") for path in writable]
    return rules


def sandbox_env(workspace: Path) -> dict[str, str]:
    """The worker's whole environment: nothing of ours (no keys, no tokens) goes in."""
    internal = workspace / ".bunseki"
    env = {
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "HOME": str(internal / "home"),
        "TMPDIR": str(internal / "tmp"),
        "MPLCONFIGDIR": str(internal / "mplconfig"),
        "MPLBACKEND": "Agg",
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "USER": "sandbox",
        # One thread per library: forking after OpenMP has run deadlocks with GNU OpenMP, and
        # each thread would count against the process limit.
        "OMP_NUM_THREADS": "1",
        "OPENBLAS_NUM_THREADS": "1",
        "MKL_NUM_THREADS": "1",
        "NUMEXPR_NUM_THREADS": "1",
        "VECLIB_MAXIMUM_THREADS": "1",
        "MALLOC_ARENA_MAX": "2",
        # pyarrow (behind pandas' string columns) would otherwise reserve gigabytes of address
        # space up front through mimalloc/jemalloc, which the data-segment limit refuses.
        "ARROW_DEFAULT_MEMORY_POOL": "system",
        "LOKY_MAX_CPU_COUNT": str(os.cpu_count() or 1),
    }
    return env


def _parents(paths: list[Path]) -> list[Path]:
    """The directories above ``paths``, outermost first, once each."""
    parents: list[Path] = []
    for path in paths:
        for parent in reversed(path.parents[:-1]):  # not "/"
            if parent not in parents:
                parents.append(parent)
    return parents


def inner_workspace(report: IsolationReport, workspace: Path) -> str:
    """The workspace's path as the worker sees it."""
    return INNER_WORKSPACE if report.tier == "bwrap" else str(workspace)


def build_launch(
    report: IsolationReport,
    workspace: Path,
    config_json: str,
    pass_fds: list[int],
    interpreter: Interpreter | None = None,
    *,
    private: str | None = None,
) -> Launch:
    """How to start the worker for ``workspace`` (for Landlock, the directory it actually uses).

    ``private``: a directory (relative to the workspace) that alone of its siblings stays writable:
    bubblewrap shows its parent read-only. Landlock cannot subtract from the workspace it allows.
    """
    inner = inner_workspace(report, workspace)
    binds = [("--bind", str(workspace), inner)]
    binds += [("--ro-bind", str(workspace / name), f"{inner}/{name}") for name in READ_ONLY_DIRS]
    if private is not None:
        parent = str(Path(private).parent)
        binds += [("--ro-bind", str(workspace / parent), f"{inner}/{parent}")]
        binds += [("--bind", str(workspace / private), f"{inner}/{private}")]
    return _launch(report, binds, inner, sandbox_env(Path(inner)), config_json, pass_fds, interpreter)


def build_zygote_launch(
    report: IsolationReport, root: Path, home: Path, config_json: str, pass_fds: list[int]
) -> Launch:
    """How to start a zygote that sees every workspace under ``root`` (at `ZYGOTE_ROOT` in bwrap)."""
    inner_root = ZYGOTE_ROOT if report.tier == "bwrap" else str(root)
    inner_home = ZYGOTE_HOME if report.tier == "bwrap" else str(home)
    binds = [("--bind", str(root), inner_root), ("--bind", str(home), inner_home)]
    launch = _launch(report, binds, inner_home, sandbox_env(Path(inner_home)), config_json, pass_fds, None)
    return replace(launch, linger=launch.reaped)


def _launch(
    report: IsolationReport,
    binds: list[tuple[str, str, str]],
    chdir: str,
    env: dict[str, str],
    config_json: str,
    pass_fds: list[int],
    interpreter: Interpreter | None,
) -> Launch:
    interpreter = interpreter or Interpreter.current()
    python = [interpreter.executable, "-I", "-B", str(interpreter.inside / "main.py"), config_json]
    user = _drop_to(report.run_as_uid)
    if report.tier != "bwrap":  # no PID namespace to end everything with its init: a reaper does
        return Launch(argv=python, env=env, pass_fds=pass_fds, user=user, reaped=True)
    privileged = user is not None  # root: mounts by our rights, then setpriv drops to the uid
    argv = ["bwrap", *namespaces(privileged), "--new-session", "--hostname", "sandbox"]
    argv += ["--ro-bind", "/usr", "/usr", *root_links()]
    argv += ["--proc", "/proc", "--dev", "/dev", "--size", str(TMP_SIZE), "--tmpfs", "/tmp"]
    # After the /tmp tmpfs (a venv may live under /tmp), and made 0755: bubblewrap makes the
    # directories above a mount point 0700 when it runs as root.
    for parent in _parents([Path(path) for path in ETC_FILES] + interpreter.paths):
        argv += ["--perms", "0755", "--dir", str(parent)]
    for path in ETC_FILES:
        argv += ["--ro-bind-try", path, path]
    for directory in interpreter.paths:
        argv += ["--ro-bind", str(directory), str(directory)]
    for flag, source, target in binds:
        argv += [flag, source, target]
    argv += ["--chdir", chdir, "--clearenv"]
    for key, value in env.items():
        argv += ["--setenv", key, value]
    argv += ["--", *drop_command(report.run_as_uid, privileged), *python]
    return Launch(argv=argv, env={}, pass_fds=list(pass_fds))

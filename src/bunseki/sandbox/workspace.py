"""Session workspaces: one directory per session, ``<root>/<yyyymmddhhmmss>/``, laid out as below.

```
<workspace>/
├── data/          the uploaded files, pristine and read-only inside the sandbox
├── snapshots/     the session's saved data states (Parquet), written by the host, read-only inside
├── figures/       charts the sandbox saved for cells that left figures open (a Ray instance: figures/epoch-E/)
├── …              whatever cells write (charts, CSV exports, report.md)
└── .bunseki/      internal: state snapshots, inputs, matplotlib cache, tmp, worker log
```
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from datetime import datetime
from pathlib import Path

INTERNAL = ".bunseki"
SNAPSHOTS = "snapshots"
READ_ONLY_DIRS = ("data", SNAPSHOTS)  # the host's files: cells may read them, never change them
# Also when the sandbox runs as the files' own user (Landlock, unprivileged): no entry can be added,
# renamed or removed there without a chmod first, which only bwrap's read-only mount also stops.
READ_ONLY_MODE = 0o555
INTERNAL_DIRS = ("state", "inputs", "mplconfig", "tmp", "home")
# Where the sandbox's working copies of workspaces live when it cannot reach them (`staging`):
# here when Bunseki may write it, else <tmp>/bunseki-sandbox-<uid>/; each in sessions/<copy_name>.
STAGING_DIR = Path("/var/lib/bunseki/sandbox")
STAGING_PREFIX = "bunseki-sandbox-"


def new_workspace(root: Path, now: datetime | None = None) -> Path:
    """Create a fresh workspace directory named after the current time, never reusing one."""
    stamp = (now or datetime.now()).strftime("%Y%m%d%H%M%S")
    root.mkdir(parents=True, exist_ok=True)
    for attempt in range(1, 1000):
        candidate = root / (stamp if attempt == 1 else f"{stamp}-{attempt}")
        try:
            candidate.mkdir()
        except FileExistsError:
            continue
        return candidate.resolve()
    raise FileExistsError(f"could not create a new workspace under {root}")


def internal(workspace: Path, name: str = "") -> Path:
    return workspace / INTERNAL / name if name else workspace / INTERNAL


def prepare(workspace: Path, *, owner: int | None) -> Path:
    """Make sure the layout exists; hand the writable parts to ``owner`` (a uid) if given.

    Returns the worker log path. Safe to call again on an existing workspace.
    """
    workspace = workspace.resolve()
    workspace.mkdir(parents=True, exist_ok=True)
    for name in READ_ONLY_DIRS:
        (workspace / name).mkdir(exist_ok=True)
        (workspace / name).chmod(READ_ONLY_MODE)
    for name in INTERNAL_DIRS:
        internal(workspace, name).mkdir(parents=True, exist_ok=True)
    seed_font_cache(internal(workspace, "mplconfig"))
    log = internal(workspace, "worker.log")
    log.touch()
    if owner is not None and owner != os.geteuid():
        _give(workspace, owner)
    return log


def _give(workspace: Path, owner: int) -> None:
    """chown the writable parts to the sandbox user; data/ and snapshots/ stay ours."""
    os.chown(workspace, owner, owner)
    for directory, subdirs, files in os.walk(internal(workspace)):
        os.chown(directory, owner, owner)
        for name in files:
            os.chown(os.path.join(directory, name), owner, owner, follow_symlinks=False)
        subdirs[:] = [name for name in subdirs if not os.path.islink(os.path.join(directory, name))]
    for entry in workspace.iterdir():
        if entry.name not in (*READ_ONLY_DIRS, INTERNAL) and not entry.is_symlink():
            os.chown(entry, owner, owner)


def add_data_file(workspace: Path, source: Path) -> Path:
    """Copy an uploaded file into ``data/`` and make it read-only; returns the copy's path."""
    target = workspace / "data" / source.name
    with host_writes(target.parent):
        if target.exists():
            target.chmod(0o644)
        shutil.copyfile(source, target)
        target.chmod(0o444)
    return target


@contextmanager
def host_writes(directory: Path) -> Iterator[None]:
    """Open one of the read-only directories to the host for a moment (cells never run meanwhile)."""
    directory.mkdir(parents=True, exist_ok=True)
    directory.chmod(0o755)
    try:
        yield
    finally:
        directory.chmod(READ_ONLY_MODE)


def remove_workspace(workspace: Path) -> None:
    """Delete a workspace, read-only directories included, and the sandbox's working copies of it."""
    for directory in [workspace, *working_copies(workspace)]:
        for name in READ_ONLY_DIRS:
            with suppress(OSError):
                (directory / name).chmod(0o755)
        shutil.rmtree(directory, ignore_errors=True)


def copy_name(workspace: Path) -> str:
    """The name of the sandbox's working copy of ``workspace`` (stable across restarts)."""
    return hashlib.sha256(str(workspace.resolve()).encode()).hexdigest()[:20]


def working_copies(workspace: Path) -> list[Path]:
    """The existing working copies of ``workspace``, for whichever sandbox uid made them."""
    roots = [STAGING_DIR, *Path(tempfile.gettempdir()).glob(f"{STAGING_PREFIX}*")]
    copies = [root / "sessions" / copy_name(workspace) for root in roots]
    return [copy for copy in copies if copy.is_dir()]


def seed_font_cache(directory: Path) -> None:
    """Copy matplotlib's font list into the sandbox's config dir, so it never rebuilds it.

    Rebuilding costs 100-200 ms at every worker start; the list only holds paths under /usr
    and the Python installation, which the sandbox sees at the same places.
    """
    if any(directory.glob("fontlist-*.json")):
        return
    from matplotlib import font_manager, get_cachedir

    font_manager.fontManager  # noqa: B018  (loading it writes the cache if it is missing)
    for cached in Path(get_cachedir()).glob("fontlist-*.json"):
        shutil.copyfile(cached, directory / cached.name)

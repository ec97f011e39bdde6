"""Where the Landlock tier runs when the sandbox user cannot reach the workspace or Python.

Landlock has no mount namespace: the worker sees the host's paths. When Bunseki runs as root
and drops to the sandbox uid, a workspace under a private home (``/root`` is 0700) or a virtual
environment there is out of that uid's reach. Rather than asking anyone to open their home
directory, Bunseki then works from a directory it owns and the sandbox user can reach:

```
/var/lib/bunseki/sandbox/          (or <tmp>/bunseki-sandbox-<uid>/)   0711, root
├── python/<key>/                  the Python installation, hard-linked (copied across devices)
├── inside/<hash>/                 the worker's own code
└── sessions/<hash>/               0700, the sandbox user: the session's working copy
```

The session's working copy receives ``data/`` and ``snapshots/`` from the workspace before
each cell, and the files each cell writes are copied back after it. The copy keeps the state
saved after each cell, so a restarted worker reloads it as usual. `where` says where and why,
for ``bunseki doctor``.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
import tempfile
from collections.abc import Iterable
from pathlib import Path

from bunseki.sandbox import workspace as layout

SYSTEM_DIR = layout.STAGING_DIR
PARENT_MODE = 0o711  # the sandbox user may pass through, never list
ORIGIN = ".bunseki-origin"  # in a copy of an installation: where it came from


def root_dir(uid: int) -> Path:
    """The staging root: under /var/lib when we may write there, else the temporary directory."""
    for candidate in (SYSTEM_DIR, Path(tempfile.gettempdir()) / f"{layout.STAGING_PREFIX}{uid}"):
        try:
            candidate.mkdir(parents=True, exist_ok=True, mode=PARENT_MODE)
            ours = [candidate, candidate.parent] if candidate == SYSTEM_DIR else [candidate]
            for directory in ours:
                info = directory.lstat()
                if directory.is_symlink() or info.st_uid != os.geteuid():
                    raise OSError(f"{directory} is not Bunseki's own directory")
                directory.chmod(PARENT_MODE)
        except OSError:
            continue
        if reachable(candidate, uid):
            return candidate
    raise OSError(
        f"no directory for the sandbox's working copies that uid {uid} can reach: "
        f"neither {SYSTEM_DIR} nor the temporary directory"
    )


def reachable(path: Path, uid: int) -> bool:
    """Whether ``uid`` can walk down to ``path`` (every directory on the way searchable)."""
    for part in [path, *path.parents]:
        try:
            info = part.stat()
        except OSError:
            return False
        allowed = 0o100 if info.st_uid == uid else 0o001
        if part.is_dir() and not info.st_mode & allowed:
            return False
    return True


def where(workspace_root: Path, tier: str | None, uid: int) -> str | None:
    """For ``bunseki doctor``: where sessions under ``workspace_root`` really run, and why."""
    if tier != "landlock" or uid == os.geteuid() or reachable(workspace_root.resolve(), uid):
        return None
    try:
        place = root_dir(uid) / "sessions"
    except OSError as exc:
        return f"the sandbox user (uid {uid}) cannot reach {workspace_root}, and {exc}"
    return (
        f"the sandbox user (uid {uid}) cannot reach {workspace_root}, and Landlock has no mount "
        f"namespace to show it there: each session works in a copy under {place} (data and "
        "snapshots copied in, the files each cell writes copied back)"
    )


# --- the session's working copy ---


def session_dir(workspace: Path, uid: int) -> Path:
    """The working copy of ``workspace`` (stable, so a restarted Bunseki finds the saved state)."""
    sessions = root_dir(uid) / "sessions"
    sessions.mkdir(exist_ok=True, mode=PARENT_MODE)
    sessions.chmod(PARENT_MODE)
    return sessions / layout.copy_name(workspace)


def sync_inputs(workspace: Path, staged: Path) -> None:
    """Bring ``data/`` and ``snapshots/`` of the workspace to the working copy (read-only there)."""
    for name in layout.READ_ONLY_DIRS:
        source, target = workspace / name, staged / name
        wanted = {entry.name: entry for entry in _files(source)}
        with layout.host_writes(target):
            for entry in _files(target):
                if entry.name not in wanted:
                    entry.unlink()
            for entry_name, entry in wanted.items():
                copy = target / entry_name
                info = entry.stat()
                if (
                    copy.exists()
                    and copy.stat().st_size == info.st_size
                    and copy.stat().st_mtime_ns == info.st_mtime_ns
                ):
                    continue
                if copy.exists():
                    copy.chmod(0o644)
                shutil.copy2(entry, copy)
                copy.chmod(0o444)


def copy_back(staged: Path, workspace: Path, relative_paths: Iterable[str]) -> None:
    """Copy the files a cell wrote in the working copy to the same places in the workspace."""
    for relative in relative_paths:
        source = staged / relative
        target = workspace / relative
        if not source.is_file() or source.is_symlink() or not target.resolve().is_relative_to(workspace):
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        if target.is_symlink():
            target.unlink()
        shutil.copyfile(source, target)


def _same_file(copy: os.stat_result, original: os.stat_result) -> bool:
    return copy.st_size == original.st_size and copy.st_mtime_ns == original.st_mtime_ns


def _files(directory: Path) -> list[Path]:
    if not directory.is_dir():
        return []
    return [entry for entry in directory.iterdir() if entry.is_file() and not entry.is_symlink()]


# --- the Python installation and the worker's code ---


def python(paths: list[Path], uid: int) -> dict[Path, Path]:
    """Reachable copies of the installation directories ``uid`` cannot reach: original → copy.

    Hard links where the copy is on the same device (instant, no space), copies otherwise; made
    once per installation state and reused. A virtual environment whose base is copied too is
    pointed at that copy.
    """
    moved: dict[Path, Path] = {}
    for path in paths:
        if reachable(path, uid):
            continue
        target = root_dir(uid) / "python" / _installation_key(path)
        if not (target / ORIGIN).exists():
            _link_tree(path, target)
        moved[path] = target
    _repoint_venv(moved)
    return moved


def code(directory: Path, uid: int) -> Path:
    """A reachable copy of the worker's own code (a few small files), by content."""
    digest = hashlib.sha256()
    files = sorted(item for item in directory.glob("*.py"))
    for item in files:
        digest.update(item.name.encode() + item.read_bytes())
    target = root_dir(uid) / "inside" / digest.hexdigest()[:20]
    if not target.exists():
        partial = target.with_name(target.name + ".partial")
        shutil.rmtree(partial, ignore_errors=True)
        partial.mkdir(parents=True)
        for item in files:
            shutil.copyfile(item, partial / item.name)
        _open_up(partial)
        partial.rename(target)
    return target


def _installation_key(path: Path) -> str:
    """Changes when packages are installed or removed (site-packages' own mtime moves then)."""
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    marks = [str(path)]
    for probe in (path / "lib" / version / "site-packages", path / "bin", path):
        try:
            marks.append(str(probe.stat().st_mtime_ns))
        except OSError:
            marks.append("-")
    return hashlib.sha256("\n".join(marks).encode()).hexdigest()[:20]


def _link_tree(source: Path, target: Path) -> None:
    partial = target.with_name(target.name + ".partial")
    shutil.rmtree(partial, ignore_errors=True)
    partial.parent.mkdir(parents=True, exist_ok=True, mode=PARENT_MODE)
    shutil.copytree(source, partial, symlinks=True, copy_function=_link_or_copy, ignore=_caches)
    _open_up(partial)
    (partial / ORIGIN).write_text(str(source))
    for stale in partial.parent.iterdir():  # earlier states of the same installation
        if stale != partial and _origin(stale) == str(source):
            shutil.rmtree(stale, ignore_errors=True)
    partial.rename(target)


def _origin(copy: Path) -> str | None:
    try:
        return (copy / ORIGIN).read_text()
    except OSError:
        return None


def _caches(directory: str, names: list[str]) -> list[str]:
    return [name for name in names if name == "__pycache__"]


def _link_or_copy(source: str, target: str) -> None:
    try:
        os.link(source, target, follow_symlinks=False)
    except OSError:
        shutil.copy2(source, target, follow_symlinks=False)


def _open_up(tree: Path) -> None:
    """Directories searchable and readable by everyone (the files keep their own modes)."""
    for directory, _, _ in os.walk(tree):
        os.chmod(directory, 0o755)  # noqa: S103  (read-only copies of public code, for the sandbox user)


def _repoint_venv(moved: dict[Path, Path]) -> None:
    """A copied venv whose base installation was copied as well must use that copy."""
    for original, copy in moved.items():
        config = copy / "pyvenv.cfg"
        if not config.exists():
            continue
        text = config.read_text()
        for base, base_copy in moved.items():
            if base != original and str(base) in text:
                config.unlink()  # a hard link: never write through to the original
                config.write_text(text.replace(str(base), str(base_copy)))
                for link in (copy / "bin").iterdir():
                    if link.is_symlink() and str(base) in os.readlink(link):
                        target = os.readlink(link).replace(str(base), str(base_copy))
                        link.unlink()
                        link.symlink_to(target)

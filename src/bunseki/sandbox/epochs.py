"""Fencing in the storage path: each instance of a session's sandbox saves into a directory of its epoch.

The Ray backend starts a session's sandbox anew on every (re)start, and an old instance on a cut-off
node may still be running then. Its state is saved by forked savers inside the sandbox, which cannot
ask the store whether they are still current; so instead of a check before the write, the place of
the write carries the fencing token:

```
<workspace>/.bunseki/epochs/
├── epoch-6/          the previous instance's: kept until epoch 7 committed a save of its own
│   ├── state/        its snapshots (see inside/snapshot.py)
│   └── inputs/       the frames handed to it
└── epoch-7/          ours: the only directory our sandbox may write (bwrap mounts the rest read-only)
```

An instance of epoch E restores from the newest directory of an earlier epoch, hard-linking the
files of its committed snapshot (they are never written again in place) into a directory that
appears under its final name only once complete. From then on it saves only into its own; whatever
an older instance still commits into its own directory is never read by E or any later instance.
The local backend has no epochs and keeps ``.bunseki/state``.
"""

from __future__ import annotations

import errno
import json
import os
import shutil
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path

from bunseki.errors import SandboxStartError
from bunseki.sandbox import workspace as layout
from bunseki.sandbox.inside import snapshot

ROOT = "epochs"  # under the workspace's internal directory
PREFIX = "epoch-"
PARTIAL = ".partial"
RESTORE_ATTEMPTS = 50  # an old saver may replace the snapshot we link meanwhile: read CURRENT again


@dataclass(frozen=True)
class Opened:
    """An instance's own directory, and where its state came from."""

    directory: Path
    source: int | None  # the earlier epoch restored from (None: nothing earlier)
    restored_generation: int  # the generation linked from it (-1: none)


def root(workspace: Path) -> Path:
    return layout.internal(workspace, ROOT)


def directory(workspace: Path, epoch: int) -> Path:
    return root(workspace) / f"{PREFIX}{epoch}"


def state_dir(instance: Path) -> Path:
    return instance / "state"


def existing(workspace: Path) -> dict[int, Path]:
    """The complete epoch directories of a workspace (partial ones never count), by epoch."""
    found: dict[int, Path] = {}
    try:
        entries = list(root(workspace).iterdir())
    except FileNotFoundError:
        return found
    for entry in entries:
        number = entry.name.removeprefix(PREFIX)
        if entry.name.startswith(PREFIX) and number.isdigit() and entry.is_dir() and not entry.is_symlink():
            found[int(number)] = entry
    return found


def open_epoch(workspace: Path, epoch: int) -> Opened:
    """Our own directory for ``epoch``, restored from the newest earlier epoch's committed state.

    Called once per instance, after the store gave it ``epoch``; a directory already there (the same
    instance opening it again) is kept as it is.
    """
    own = directory(workspace, epoch)
    if own.is_dir():
        return Opened(own, None, snapshot.current_generation(str(state_dir(own))))
    earlier = [number for number in existing(workspace) if number < epoch]
    source = max(earlier) if earlier else None
    partial = own.with_name(own.name + PARTIAL)
    shutil.rmtree(partial, ignore_errors=True)  # a start of this epoch that died before finishing
    for name in ("state", "inputs"):
        (partial / name).mkdir(parents=True)
    generation = -1
    if source is not None:
        generation = _link_committed(state_dir(directory(workspace, source)), state_dir(partial))
    os.rename(partial, own)  # appears complete or not at all
    return Opened(own, source, generation)


def clear(instance: Path) -> None:
    """Forget the instance's saved state and inputs (a reset), keeping its directory."""
    for name in ("state", "inputs"):
        shutil.rmtree(instance / name, ignore_errors=True)
        (instance / name).mkdir()


def committed_own_save(opened: Opened) -> bool:
    """Whether the instance has committed a snapshot of its own since it restored."""
    return snapshot.current_generation(str(state_dir(opened.directory))) > opened.restored_generation


def prune(workspace: Path, epoch: int, keep: Collection[int] = ()) -> list[int]:
    """Remove the directories of epochs before ``epoch`` (but ``keep``); never ours or a newer one."""
    removed: list[int] = []
    for number, path in existing(workspace).items():
        if number < epoch and number not in keep:
            shutil.rmtree(path, ignore_errors=True)
            removed.append(number)
    for entry in _partials(workspace):
        digits = entry.name.removeprefix(PREFIX).removesuffix(PARTIAL)
        if digits.isdigit() and int(digits) < epoch:
            shutil.rmtree(entry, ignore_errors=True)
    return sorted(removed)


def _partials(workspace: Path) -> list[Path]:
    try:
        return [entry for entry in root(workspace).iterdir() if entry.name.endswith(PARTIAL)]
    except FileNotFoundError:
        return []


def _link_committed(source: Path, target: Path) -> int:
    """Link the snapshot CURRENT names in ``source`` into ``target``; its generation (-1: none).

    An older instance's saver may commit meanwhile and remove the snapshot we are linking: then
    we start over from its new CURRENT. Only complete snapshot directories are ever linked. A
    snapshot CURRENT still names after it was found incomplete is broken: like `snapshot.load`,
    we then restore nothing.
    """
    missing = None
    for _ in range(RESTORE_ATTEMPTS):
        generation = snapshot.current_generation(str(source))
        if generation < 0:
            return -1
        if generation == missing:
            shutil.rmtree(target / str(generation), ignore_errors=True)
            return -1
        origin, copy = source / str(generation), target / str(generation)
        shutil.rmtree(copy, ignore_errors=True)
        copy.mkdir()
        try:
            _link(origin / "manifest.json", copy / "manifest.json")
            manifest = json.loads((copy / "manifest.json").read_text(encoding="utf-8"))
            for filename in manifest.get("names", {}).values():
                _link(origin / filename, copy / filename)
        except FileNotFoundError:
            missing = generation  # replaced by a newer snapshot under our feet: take that one
            continue
        pointer = target / (snapshot.CURRENT + ".tmp")
        pointer.write_text(str(generation), encoding="utf-8")
        os.replace(pointer, target / snapshot.CURRENT)
        return generation
    raise SandboxStartError(f"could not restore the saved state from {source}: it kept changing while read")


def _link(source: Path, target: Path) -> None:
    """A hard link (instant, no space); a copy where links are not possible (another device, rights)."""
    try:
        os.link(source, target)
    except OSError as exc:
        if exc.errno not in (errno.EXDEV, errno.EPERM, errno.EACCES, errno.EMLINK, errno.ENOTSUP):
            raise
        shutil.copyfile(source, target)

"""Save the namespace to the workspace after successful cells, and load it after a restart.

A snapshot is a directory ``<state>/<generation>/`` with one pickle per variable and a manifest;
``<state>/CURRENT`` names the newest complete one and is replaced atomically, so a worker that
dies mid-save leaves the previous snapshot in force. The generation grows with every change of
the state (a successful cell, a loaded frame), so savers that run concurrently commit in order:
one writes only under ``<state>/LOCK`` and only if its generation is newer than CURRENT's, so a
late save of an older state never replaces a newer one. Pickles are written and read only
inside the sandbox: the controller never unpickles anything from the workspace.
"""

from __future__ import annotations

import fcntl
import json
import os
import pickle
import shutil
import types
from collections.abc import Callable
from typing import Any

CURRENT = "CURRENT"
LOCK = "LOCK"


def persistable(namespace: dict[str, Any], injected: set[str]) -> dict[str, Any]:
    return {
        name: value
        for name, value in namespace.items()
        if not name.startswith("_") and name not in injected and not isinstance(value, types.ModuleType)
    }


def current_generation(state_dir: str) -> int:
    """The generation CURRENT names, or -1 when there is no snapshot yet."""
    try:
        with open(os.path.join(state_dir, CURRENT), encoding="utf-8") as handle:
            return int(handle.read().strip())
    except (OSError, ValueError):
        return -1


def save(
    namespace: dict[str, Any],
    injected: set[str],
    state_dir: str,
    cell: int,
    generation: int,
    on_locked: Callable[[], None] | None = None,
) -> list[str] | None:
    """Write a snapshot of ``namespace`` (the state after ``cell``) as ``generation``.

    Waits for any other saver first. Returns the names that could not be saved, or None when a
    snapshot at least as new was already in force (nothing written).
    """
    with open(os.path.join(state_dir, LOCK), "a", encoding="utf-8") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if on_locked is not None:
            on_locked()
        if current_generation(state_dir) >= generation:
            return None
        final = os.path.join(state_dir, str(generation))
        partial = final + ".partial"
        shutil.rmtree(partial, ignore_errors=True)
        os.makedirs(partial)
        saved: dict[str, str] = {}
        lost: list[str] = []
        for number, (name, value) in enumerate(sorted(persistable(namespace, injected).items())):
            filename = f"{number}.pkl"
            try:
                with open(os.path.join(partial, filename), "wb") as handle:
                    pickle.dump(value, handle, protocol=pickle.HIGHEST_PROTOCOL)
            except Exception:  # functions, generators, open files…: reported, not fatal
                lost.append(name)
                continue
            saved[name] = filename
        manifest = {"cell": cell, "generation": generation, "names": saved, "lost": lost}
        with open(os.path.join(partial, "manifest.json"), "w", encoding="utf-8") as handle:
            json.dump(manifest, handle, ensure_ascii=False)
        shutil.rmtree(final, ignore_errors=True)
        os.rename(partial, final)
        pointer = os.path.join(state_dir, CURRENT + ".tmp")
        with open(pointer, "w", encoding="utf-8") as handle:
            handle.write(str(generation))
        os.replace(pointer, os.path.join(state_dir, CURRENT))
        for entry in os.listdir(state_dir):  # under the lock, no other saver is writing
            path = os.path.join(state_dir, entry)
            if entry != str(generation) and os.path.isdir(path):
                shutil.rmtree(path, ignore_errors=True)
        return lost


def current_manifest(state_dir: str) -> tuple[int, dict[str, Any]] | None:
    """The generation CURRENT names and its manifest; None when there is no snapshot yet.

    A saver that commits a newer generation removes the older one: if ours went while we read it,
    CURRENT has moved on, and we read the new one."""
    while True:
        generation = current_generation(state_dir)
        try:
            with open(os.path.join(state_dir, str(generation), "manifest.json"), encoding="utf-8") as handle:
                return generation, json.load(handle)
        except (OSError, ValueError):
            if current_generation(state_dir) == generation:
                return None


def load(state_dir: str) -> tuple[dict[str, Any], int, int, list[str]]:
    """The newest complete snapshot: (variables, cell, generation, names that could not be restored)."""
    found = current_manifest(state_dir)
    if found is None:
        return {}, 0, 0, []
    generation, manifest = found
    directory = os.path.join(state_dir, str(generation))
    variables: dict[str, Any] = {}
    lost = list(manifest.get("lost", []))
    for name, filename in manifest.get("names", {}).items():
        try:
            with open(os.path.join(directory, filename), "rb") as handle:
                variables[name] = pickle.load(handle)
        except Exception:
            lost.append(name)
    cell = int(manifest.get("cell", generation))
    return variables, cell, max(generation, cell), lost

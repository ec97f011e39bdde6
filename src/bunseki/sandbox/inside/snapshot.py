"""Save the namespace to the workspace after each successful cell, and load it after a restart.

A snapshot is a directory ``<state>/<cell>/`` with one pickle per variable and a manifest;
``<state>/CURRENT`` names the newest complete one and is replaced atomically, so a worker that
dies mid-save leaves the previous snapshot in force. Pickles are written and read only inside
the sandbox: the controller never unpickles anything from the workspace.
"""

from __future__ import annotations

import json
import os
import pickle
import shutil
import types
from typing import Any

CURRENT = "CURRENT"


def persistable(namespace: dict[str, Any], injected: set[str]) -> dict[str, Any]:
    return {
        name: value
        for name, value in namespace.items()
        if not name.startswith("_") and name not in injected and not isinstance(value, types.ModuleType)
    }


def save(namespace: dict[str, Any], injected: set[str], state_dir: str, cell: int) -> list[str]:
    """Write a snapshot of ``namespace`` as of ``cell``; returns the names that could not be saved."""
    final = os.path.join(state_dir, str(cell))
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
    with open(os.path.join(partial, "manifest.json"), "w", encoding="utf-8") as handle:
        json.dump({"cell": cell, "names": saved, "lost": lost}, handle, ensure_ascii=False)
    shutil.rmtree(final, ignore_errors=True)
    os.rename(partial, final)
    pointer = os.path.join(state_dir, CURRENT + ".tmp")
    with open(pointer, "w", encoding="utf-8") as handle:
        handle.write(str(cell))
    os.replace(pointer, os.path.join(state_dir, CURRENT))
    for entry in os.listdir(state_dir):
        if entry not in (CURRENT, str(cell)):
            path = os.path.join(state_dir, entry)
            if os.path.isdir(path):
                shutil.rmtree(path, ignore_errors=True)
    return lost


def load(state_dir: str) -> tuple[dict[str, Any], int, list[str]]:
    """The newest complete snapshot: (variables, cell number, names that could not be restored)."""
    try:
        with open(os.path.join(state_dir, CURRENT), encoding="utf-8") as handle:
            cell = int(handle.read().strip())
        directory = os.path.join(state_dir, str(cell))
        with open(os.path.join(directory, "manifest.json"), encoding="utf-8") as handle:
            manifest = json.load(handle)
    except (OSError, ValueError):
        return {}, 0, []
    variables: dict[str, Any] = {}
    lost = list(manifest.get("lost", []))
    for name, filename in manifest.get("names", {}).items():
        try:
            with open(os.path.join(directory, filename), "rb") as handle:
                variables[name] = pickle.load(handle)
        except Exception:
            lost.append(name)
    return variables, cell, lost

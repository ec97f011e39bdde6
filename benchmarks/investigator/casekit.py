"""Shared by the case generator and the benchmark: load a case's function, read its flags, diffs."""

from __future__ import annotations

import ast
import importlib.util
import re
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import yaml  # type: ignore[import-untyped]

CASES = Path(__file__).resolve().parent / "cases"


def manifest(case_dir: Path) -> dict[str, Any]:
    return yaml.safe_load((case_dir / "case.yaml").read_text(encoding="utf-8"))


def truth(case_dir: Path) -> dict[str, Any]:
    return yaml.safe_load((case_dir / "truth" / "truth.yaml").read_text(encoding="utf-8"))


def public_function(source: str) -> str:
    """The one top-level function whose name does not start with an underscore."""
    names = [
        node.name
        for node in ast.parse(source).body
        if isinstance(node, ast.FunctionDef) and not node.name.startswith("_")
    ]
    if len(names) != 1:
        raise ValueError(f"expected one public function, found {names}")
    return names[0]


def entry_of(case_dir: Path) -> tuple[str, str]:
    """(code file name, function name) of a case, from its entry or its one public function."""
    raw = manifest(case_dir)
    if raw.get("entry"):
        file_name, _, function = str(raw["entry"]).rpartition(":")
        return file_name, function
    code = str(raw["codes"][0])
    return code, public_function((case_dir / code).read_text(encoding="utf-8"))


def load_function(path: Path, name: str) -> Callable[..., Any]:
    spec = importlib.util.spec_from_file_location(f"case_{uuid.uuid4().hex}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return getattr(module, name)


def flags(result: Any, column: str) -> np.ndarray:
    """The 0/1 flag out of whatever the algorithm returned (Series, array or a table with the column)."""
    if isinstance(result, pd.DataFrame):
        result = result[column]
    return np.asarray(result).astype(int)


def runs_text(frames: np.ndarray, flag: np.ndarray, column: str, language: str) -> str:
    """The expected text of a flag: the frame ranges where it is 1 (or the whole record at 0)."""
    on = flag.astype(bool)
    spans: list[tuple[int, int]] = []
    for index, value in enumerate(on):
        if value and (index == 0 or not on[index - 1]):
            spans.append((int(frames[index]), int(frames[index])))
        elif value:
            spans[-1] = (spans[-1][0], int(frames[index]))
    value_text = "1"
    if not spans:
        spans, value_text = [(int(frames[0]), int(frames[-1]))], "0"
    parts = [f"{a}-{b}" for a, b in spans]
    if language == "ja":
        joined = "と".join(parts) if len(parts) <= 2 else "、".join(parts)
        return f"フレーム{joined}で{column}={value_text}"
    joined = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
    return f"frames {joined} have {column}={value_text}"


def expected_holds(text: str, frames: np.ndarray, flag: np.ndarray) -> bool:
    """Whether a flag makes an expected text true: the value on the named frames and nowhere else."""
    match = re.search(r"([A-Za-z_]\w*)=(\d+)", text)
    assert match is not None
    value = int(match.group(2))
    inside = np.zeros(len(frames), dtype=bool)
    for a, b in re.findall(r"(\d+)-(\d+)", text[: match.start()]):
        inside |= (frames >= int(a)) & (frames <= int(b))
    return bool(((flag == value) == inside).all())


_HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


def apply_unified_diff(original: str, diff: str) -> str:
    """Apply a one-file unified diff to a text; raises ValueError when a hunk does not match."""
    lines = original.splitlines(keepends=True)
    out: list[str] = []
    position = 0
    diff_lines = diff.splitlines()
    index = 0
    while index < len(diff_lines):
        hunk = _HUNK.match(diff_lines[index])
        index += 1
        if hunk is None:
            continue
        start = int(hunk.group(1)) - 1 if hunk.group(2) != "0" else int(hunk.group(1))
        body: list[str] = []
        while index < len(diff_lines) and not _HUNK.match(diff_lines[index]):
            if diff_lines[index].startswith(("--- ", "+++ ")) and not body:
                break
            body.append(diff_lines[index])
            index += 1
        old = [line[1:] for line in body if line[:1] in (" ", "-")]
        new = [line[1:] for line in body if line[:1] in (" ", "+")]
        at = _locate(lines, old, start, position)
        out.extend(lines[position:at])
        out.extend(text + "\n" for text in new)
        position = at + len(old)
    out.extend(lines[position:])
    return "".join(out)


def _locate(lines: list[str], old: list[str], start: int, position: int) -> int:
    stripped = [line.rstrip("\r\n") for line in lines]
    for offset in sorted(range(-len(lines), len(lines) + 1), key=abs):
        at = start + offset
        if position <= at <= len(lines) - len(old) and stripped[at : at + len(old)] == old:
            return at
    raise ValueError("a hunk of the diff does not match the code")

"""A static check of a cell before it runs: friendly early errors, not the security boundary.

Whitelisted libraries can read files and re-export ``os``; no static check can stop a
determined cell. The sandbox's OS isolation does that. This check
exists so that a model which writes ``import requests`` or reads ``/etc/passwd`` learns, in
one short message it can act on, what it may do instead.
"""

from __future__ import annotations

import ast
import posixpath
import traceback
from dataclasses import dataclass
from pathlib import PurePosixPath

ANALYSIS_LIBRARIES = frozenset({"pandas", "numpy", "sklearn", "scipy", "matplotlib", "seaborn"})
HARMLESS_STDLIB = frozenset(
    {
        "math",
        "cmath",
        "statistics",
        "datetime",
        "time",
        "calendar",
        "zoneinfo",
        "re",
        "json",
        "csv",
        "io",
        "collections",
        "itertools",
        "functools",
        "operator",
        "string",
        "textwrap",
        "unicodedata",
        "decimal",
        "fractions",
        "numbers",
        "random",
        "heapq",
        "bisect",
        "copy",
        "pprint",
        "typing",
        "dataclasses",
        "enum",
        "abc",
        "warnings",
        "difflib",
        "pathlib",
        "base64",
        "hashlib",
        "uuid",
        "array",
        "contextlib",
    }
)
ALLOWED_MODULES = ANALYSIS_LIBRARIES | HARMLESS_STDLIB
# os.path is harmless and everywhere in generated code; the rest of os is not offered.
ALLOWED_SUBMODULES = frozenset({"os.path"})
BLOCKED_CALLS = {
    "eval": "eval() is not available; compute the value directly.",
    "exec": "exec() is not available; write the code in the cell itself.",
    "compile": "compile() is not available; write the code in the cell itself.",
    "__import__": "__import__() is not available; use a plain import of an allowed library.",
    "breakpoint": "breakpoint() is not available: the cell runs unattended.",
    "input": "input() is not available: the cell runs unattended; put the value in the code.",
}
BLOCKED_ATTRIBUTES = frozenset(
    {
        "__subclasses__",
        "__globals__",
        "__builtins__",
        "__code__",
        "__closure__",
        "__mro__",
        "__bases__",
        "__base__",
        "__getattribute__",
        "__loader__",
        "__spec__",
        "__reduce__",
        "__reduce_ex__",
        "__self__",
        "__func__",
        "f_globals",
        "f_locals",
        "f_back",
        "gi_frame",
        "tb_frame",
        "cr_frame",
    }
)
SYSTEM_PREFIXES = (
    "/etc",
    "/proc",
    "/sys",
    "/dev",
    "/root",
    "/home",
    "/usr",
    "/var",
    "/bin",
    "/boot",
    "/run",
    "/srv",
    "/opt",
    "/mnt",
    "/media",
    "/lib",
    "/sbin",
    "/tmp",
)


@dataclass(frozen=True)
class Violation:
    line: int
    message: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}"


def syntax_error(code: str) -> str | None:
    """Python's own message for code that does not parse, or None."""
    try:
        ast.parse(code, "<cell>")
    except SyntaxError as exc:
        return "".join(traceback.format_exception_only(type(exc), exc))
    return None


def check(code: str, workspace: str | None = None) -> list[Violation]:
    """Every reason to refuse ``code`` (which must parse), in source order."""
    tree = ast.parse(code, "<cell>")
    violations = []
    for node in ast.walk(tree):
        violations += _check_node(node, workspace)
    return sorted(violations, key=lambda violation: violation.line)


def explain(violations: list[Violation]) -> str:
    """One message for a person or a model: what was refused and what to do instead."""
    lines = [f"  {violation}" for violation in violations]
    allowed = ", ".join(sorted(ANALYSIS_LIBRARIES))
    return (
        "PolicyViolation: the cell was not run.\n" + "\n".join(lines) + "\n"
        f"Cells may import {allowed} and harmless standard modules (math, statistics, datetime, "
        "re, json, collections, itertools, …). The data is in the variable `df`; files are read "
        "and written in the current directory (the workspace), with relative paths.\n"
    )


def _check_node(node: ast.AST, workspace: str | None) -> list[Violation]:
    line = getattr(node, "lineno", 0)
    if isinstance(node, ast.Import):
        return [v for alias in node.names if (v := _check_module(alias.name, line))]
    if isinstance(node, ast.ImportFrom):
        if node.level:
            return [Violation(line, "relative imports are not available in a cell.")]
        return [v for v in [_check_module(node.module or "", line)] if v]
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in BLOCKED_CALLS:
        return [Violation(line, BLOCKED_CALLS[node.func.id])]
    if isinstance(node, ast.Attribute) and node.attr in BLOCKED_ATTRIBUTES:
        return [Violation(line, f"the attribute {node.attr} is not available in a cell.")]
    if isinstance(node, ast.Name) and node.id in BLOCKED_ATTRIBUTES:
        return [Violation(line, f"the name {node.id} is not available in a cell.")]
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return _check_path(node.value, line, workspace)
    return []


def _check_module(name: str, line: int) -> Violation | None:
    top = name.split(".")[0]
    if top in ALLOWED_MODULES or name in ALLOWED_SUBMODULES or name.startswith("os.path."):
        return None
    hints = {
        "os": "use pathlib.Path or os.path for paths; files go in the current directory.",
        "subprocess": "running programs is not available; do the work in Python.",
        "requests": "there is no network in the sandbox; work with the data you have.",
        "urllib": "there is no network in the sandbox; work with the data you have.",
        "socket": "there is no network in the sandbox; work with the data you have.",
        "sys": "sys is not available; print() for output, exceptions for errors.",
        "pickle": "pickle is not available; save tables with df.to_csv or df.to_parquet.",
        "plotly": "plotly is not installed; use matplotlib or seaborn.",
        "statsmodels": "statsmodels is not installed; scipy.stats and sklearn offer the common models.",
    }
    hint = hints.get(top, "it is not one of the libraries the sandbox offers.")
    return Violation(line, f"import {name} is not allowed: {hint}")


def _check_path(text: str, line: int, workspace: str | None) -> list[Violation]:
    if not text.startswith("/") or "\n" in text or len(text) > 4096:
        return []
    path = posixpath.normpath(text)
    if workspace and PurePosixPath(path).is_relative_to(workspace):
        return []
    if any(path == prefix or path.startswith(prefix + "/") for prefix in SYSTEM_PREFIXES):
        return [
            Violation(
                line,
                f"{text!r} is outside the workspace; only files in the workspace "
                "(the current directory) can be read or written.",
            )
        ]
    return []

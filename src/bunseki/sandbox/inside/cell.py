"""Run one cell in the forked child: execute, show the last value, save figures, list files."""

from __future__ import annotations

import ast
import linecache
import os
import time
import traceback
from typing import Any

TABLE_ROWS = 50
TABLE_COLUMNS = 50
MAX_FIGURE_PIXELS = 4000
HIDDEN_DIRS = {".bunseki", "data", "snapshots"}  # the host's files, never a cell's output

_tables: list[dict[str, Any]] = []


def display(*values: Any) -> None:
    """Show values as a notebook would: DataFrames and Series also become result tables."""
    for value in values:
        table = as_table(value)
        if table is not None:
            _tables.append(table)
        print(value if isinstance(value, str) else repr(value))


def execute(code: str, namespace: dict[str, Any], cell_index: int) -> dict[str, Any]:
    """Execute ``code`` in ``namespace``; returns the child's part of the result message."""
    _tables.clear()
    filename = f"<cell {cell_index}>"
    linecache.cache[filename] = (len(code), None, code.splitlines(keepends=True), filename)
    started = time.perf_counter()
    error = None
    try:
        body, last = split_last_expression(ast.parse(code, filename))
        exec(compile(body, filename, "exec"), namespace)
        if last is not None:
            value = eval(compile(last, filename, "eval"), namespace)
            if value is not None and not code.rstrip().endswith(";") and not is_plot_object(value):
                display(value)
    except BaseException as exc:  # the cell's own failure, reported, never raised
        error = describe_error(exc, filename)
    return {
        "exec_s": time.perf_counter() - started,
        "error": error,
        "tables": list(_tables),
    }


def is_plot_object(value: Any) -> bool:
    """Matplotlib artists (what plt.title() returns): shown as charts, not echoed as text."""
    from matplotlib.artist import Artist

    if isinstance(value, list | tuple):
        return bool(value) and all(isinstance(item, Artist) for item in value)
    return isinstance(value, Artist)


def split_last_expression(tree: ast.Module) -> tuple[ast.Module, ast.Expression | None]:
    if tree.body and isinstance(tree.body[-1], ast.Expr):
        last = tree.body.pop()
        assert isinstance(last, ast.Expr)
        return tree, ast.Expression(last.value)
    return tree, None


def describe_error(exc: BaseException, filename: str) -> dict[str, Any]:
    """Type, message and a traceback trimmed to the cell's own lines."""
    frames = [frame for frame in traceback.extract_tb(exc.__traceback__) if frame.filename == filename]
    lines = traceback.format_exception_only(type(exc), exc)
    text = "".join(["Traceback (most recent call last):\n", *traceback.format_list(frames), *lines])
    return {
        "type": type(exc).__name__,
        "message": "".join(lines).strip().partition(": ")[2] or str(exc),
        "traceback": text.replace(f'File "{filename}"', 'File "<cell>"'),
        "errno": getattr(exc, "errno", None),
    }


def as_table(value: Any) -> dict[str, Any] | None:
    """A JSON-ready preview of a DataFrame or Series, or None for anything else."""
    import json

    import pandas as pd

    if isinstance(value, pd.Series):
        value = value.to_frame()
    if not isinstance(value, pd.DataFrame):
        return None
    preview = value.iloc[:TABLE_ROWS, :TABLE_COLUMNS]
    data = json.loads(preview.to_json(orient="split", date_format="iso", default_handler=str))
    return {
        "columns": [str(column) for column in data["columns"]],
        "index": [str(label) for label in data["index"]],
        "rows": data["data"],
        "shape": list(value.shape),
    }


def save_figures(directory: str, cell_index: int, max_count: int) -> tuple[list[str], int]:
    """Save every open figure the cell did not save itself, then close them all.

    Returns the saved paths and how many figures were dropped by the ``max_count`` cap.
    """
    import matplotlib.pyplot as plt

    saved: list[str] = []
    dropped = 0
    numbers = plt.get_fignums()
    for number in numbers:
        figure = plt.figure(number)
        if getattr(figure, "_bunseki_saved", None):
            continue
        if len(saved) >= max_count:
            dropped += 1
            continue
        os.makedirs(directory, exist_ok=True)
        path = os.path.join(directory, f"cell{cell_index:03d}_{len(saved) + 1}.png")
        width, height = figure.get_size_inches()
        dpi = min(110.0, MAX_FIGURE_PIXELS / max(width, height, 0.01))
        figure.savefig(path, dpi=dpi, bbox_inches="tight")
        saved.append(path)
    plt.close("all")
    return saved, dropped


def scan_workspace(root: str) -> dict[str, tuple[int, int]]:
    """Every file the cells can have written: relative path → (mtime_ns, size)."""
    found: dict[str, tuple[int, int]] = {}
    stack = [root]
    while stack:
        directory = stack.pop()
        try:
            entries = list(os.scandir(directory))
        except OSError:
            continue
        for entry in entries:
            try:
                if entry.is_dir(follow_symlinks=False):
                    if directory != root or entry.name not in HIDDEN_DIRS:
                        stack.append(entry.path)
                    continue
                if not entry.is_file(follow_symlinks=False):
                    continue  # symlinks, FIFOs and devices are never artifacts
                stat = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            found[os.path.relpath(entry.path, root)] = (stat.st_mtime_ns, stat.st_size)
    return found


def changed_files(before: dict[str, tuple[int, int]], after: dict[str, tuple[int, int]]) -> list[str]:
    return sorted(path for path, meta in after.items() if before.get(path) != meta)

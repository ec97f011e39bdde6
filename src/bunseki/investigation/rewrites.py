"""Candidate edits of how a signal is computed, beyond numbers and operators, found in the AST.

- **window**: a rolling window made centred (``center=True`` added, or its value flipped) and its
  ``min_periods`` left to the default (removed);
- **reducer**: a statistic swapped for another (``.mean()`` ↔ ``.median()``, ``np.max`` …);
- **fill**: missing values treated another way (``.fillna(0)`` ↔ ``.ffill()``, ``.bfill()``,
  ``.interpolate()``);
- **wrap**: an expression that reads a column of the data taken as its magnitude (``abs(…)``) or
  clipped to a range the specifications state (``(…).clip(0, 100)``);
- **column**: another column of the data read in place of one;
- **dtype** (rounding): an integer cast that truncates made to round (half up, or half to even).

Like every edit, each replaces one segment of one line, so the fix reads as a small diff.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence

from bunseki.investigation.edits import INTEGER_TYPES, Edit, EditKind

REDUCERS = ("mean", "median", "sum", "max", "min")
FILLS = ("ffill()", "bfill()", "interpolate()", "fillna(0)")
_FILL_CALLS = {"fillna", "ffill", "bfill", "interpolate", "pad", "backfill"}


def structural_edits(
    source: str, *, columns: Sequence[str] = (), ranges: Sequence[tuple[float, float]] = ()
) -> list[Edit]:
    """Every window, reducer, fill, wrap and column edit of ``source``; ``columns`` are the data's
    (the ones a read may switch to, and the reads worth wrapping), ``ranges`` the documented ones."""
    tree = ast.parse(source)
    lines = source.splitlines()
    edits: list[Edit] = []
    for function in [node for node in ast.walk(tree) if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)]:
        for node in ast.walk(function):
            site = _Site(lines, function.name)
            if isinstance(node, ast.Call):
                edits += site.window(node) + site.reducer(node) + site.fill(node) + site.rounding(node)
            elif isinstance(node, ast.Assign | ast.Return | ast.AnnAssign) and node.value is not None:
                if _reads(node.value, columns):
                    edits += site.wrap(node.value, ranges)
            elif isinstance(node, ast.Subscript) and _column_name(node) in columns:
                edits += site.column(node, columns)
    return list({edit.id: edit for edit in edits}.values())


class _Site:
    """Edits at nodes of one function, with the columns converted from the AST's UTF-8 offsets."""

    def __init__(self, lines: list[str], context: str) -> None:
        self.lines = lines
        self.context = context

    def window(self, call: ast.Call) -> list[Edit]:
        if not (isinstance(call.func, ast.Attribute) and call.func.attr == "rolling"):
            return []
        edits = []
        keywords = {k.arg: k for k in call.keywords if k.arg}
        center = keywords.get("center")
        if center is not None:
            if isinstance(center.value, ast.Constant) and isinstance(center.value.value, bool):
                flipped = "False" if center.value.value else "True"
                edits += self._replace(center.value, flipped, "window", "rolling(center=…)")
        else:
            arguments = [*call.args, *call.keywords]
            if arguments:
                last = arguments[-1]
                text = self._text(last)
                if text is not None:
                    edits += self._replace(last, f"{text}, center=True", "window", "rolling(…)")
        periods = keywords.get("min_periods")
        if periods is not None:
            previous = [node for node in [*call.args, *call.keywords] if node is not periods]
            if previous:
                edits += self._span(previous[-1], periods, "window", "rolling(min_periods=…)")
        return edits

    def reducer(self, call: ast.Call) -> list[Edit]:
        func = call.func
        if not (isinstance(func, ast.Attribute) and func.attr in REDUCERS) or len(call.args) > 2:
            return []
        return [
            edit
            for other in REDUCERS
            if other != func.attr
            for edit in self._name(func, func.attr, other, "reducer", f".{func.attr}()")
        ]

    def fill(self, call: ast.Call) -> list[Edit]:
        func = call.func
        if not (isinstance(func, ast.Attribute) and func.attr in _FILL_CALLS):
            return []
        start = self._name_start(func, func.attr)
        end = self._end(call)
        if start is None or end is None or call.lineno != call.end_lineno:
            return []
        line = self.lines[call.lineno - 1]
        old = line[start:end]
        return [
            Edit("fill", call.lineno, start, call.lineno, end, old, new, f"{self.context}: missing values")
            for new in FILLS
            if new != old
        ]

    def rounding(self, call: ast.Call) -> list[Edit]:
        """An integer cast that truncates (``x.astype(int)``, ``int(v)``) made to round: half up, or half to even."""
        func = call.func
        # "+0.5" without spaces: a change's id joins its edits' ids with " + ".
        if isinstance(func, ast.Attribute) and func.attr == "astype" and call.args and _integer_type(call.args[0]):
            receiver, cast = self._text(func.value), self._text(call.args[0])
            if receiver is None or cast is None or _boolean(func.value):
                return []
            news = [f"((({receiver})+0.5) // 1).astype({cast})", f"({receiver}).round().astype({cast})"]
        elif isinstance(func, ast.Name) and func.id == "int" and len(call.args) == 1 and not call.keywords:
            value = self._text(call.args[0])
            if value is None or _boolean(call.args[0]):
                return []
            news = [f"int((({value})+0.5) // 1)", f"round({value})"]
        else:
            return []
        return [edit for new in news for edit in self._replace(call, new, "dtype", "an integer cast rounds")]

    def wrap(self, value: ast.expr, ranges: Sequence[tuple[float, float]]) -> list[Edit]:
        text = self._text(value)
        if text is None:
            return []
        news = [f"abs({text})", *(f"({text}).clip({_short(low)}, {_short(high)})" for low, high in ranges)]
        return [edit for new in news for edit in self._replace(value, new, "wrap", f"{self.context}: the value read")]

    def column(self, node: ast.Subscript, columns: Sequence[str]) -> list[Edit]:
        slice_ = node.slice
        text = self._text(slice_)
        current = _column_name(node)
        if text is None or current is None:
            return []
        quote = text[0] if text[:1] in ("'", '"') else '"'
        return [
            edit
            for other in columns
            if other != current
            for edit in self._replace(slice_, f"{quote}{other}{quote}", "column", f"{self.context}: column read")
        ]

    # --- segments ---

    def _col(self, line: int, offset: int | None) -> int | None:
        if offset is None or not 1 <= line <= len(self.lines):
            return None
        return len(self.lines[line - 1].encode("utf-8")[:offset].decode("utf-8", errors="ignore"))

    def _end(self, node: ast.AST) -> int | None:
        return self._col(getattr(node, "end_lineno", 0) or 0, getattr(node, "end_col_offset", None))

    def _text(self, node: ast.AST) -> str | None:
        line = getattr(node, "lineno", 0)
        if line != getattr(node, "end_lineno", None):
            return None
        start, end = self._col(line, getattr(node, "col_offset", None)), self._end(node)
        return None if start is None or end is None else self.lines[line - 1][start:end]

    def _replace(self, node: ast.AST, new: str, kind: EditKind, context: str) -> list[Edit]:
        old = self._text(node)
        if old is None or old == new:
            return []
        line = getattr(node, "lineno", 0)
        start = self._col(line, getattr(node, "col_offset", None))
        end = self._end(node)
        assert start is not None and end is not None
        return [Edit(kind, line, start, line, end, old, new, f"{self.context}: {context}")]

    def _span(self, previous: ast.AST, node: ast.AST, kind: EditKind, context: str) -> list[Edit]:
        """Remove ``node`` (a keyword argument) with the separator after ``previous``."""
        line = getattr(node, "lineno", 0)
        if getattr(previous, "end_lineno", None) != line or getattr(node, "end_lineno", None) != line:
            return []
        start, end = self._end(previous), self._end(node)
        if start is None or end is None:
            return []
        old = self.lines[line - 1][start:end]
        return [Edit(kind, line, start, line, end, old, "", f"{self.context}: {context}")] if old.strip() else []

    def _name_start(self, func: ast.Attribute, name: str) -> int | None:
        end = self._end(func)
        return None if end is None else end - len(name)

    def _name(self, func: ast.Attribute, old: str, new: str, kind: EditKind, context: str) -> list[Edit]:
        start, end = self._name_start(func, old), self._end(func)
        if start is None or end is None or func.lineno != func.end_lineno:
            return []
        return [Edit(kind, func.end_lineno, start, func.end_lineno, end, old, new, f"{self.context}: {context}")]


def _boolean(node: ast.expr) -> bool:
    """A comparison or a logical expression: its cast to int turns True/False into 1/0, and truncates nothing."""
    return isinstance(node, ast.Compare | ast.BoolOp) or (
        isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not)
    )


def _integer_type(node: ast.expr) -> bool:
    name = node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else None
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        name = node.value
    return name in INTEGER_TYPES


def _column_name(node: ast.Subscript) -> str | None:
    slice_ = node.slice
    return slice_.value if isinstance(slice_, ast.Constant) and isinstance(slice_.value, str) else None


def _reads(value: ast.expr, columns: Sequence[str]) -> bool:
    """Whether an expression reads one of ``columns`` (a ``df["col"]`` inside it)."""
    return any(isinstance(node, ast.Subscript) and _column_name(node) in columns for node in ast.walk(value))


def _short(value: float) -> str:
    return repr(int(value)) if float(value).is_integer() else repr(value)

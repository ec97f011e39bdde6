"""Candidate edits of simple patterns in an algorithm's source, found in its AST.

Three patterns: a comparison operator (``>`` ↔ ``>=``, ``<`` ↔ ``<=``), an integer constant
(``k ± d``) and a numeric default parameter value or keyword argument; any number may also be
scaled by a factor (a unit or scale error) or set to a value the data or the documents suggest.
A fourth, for rounding and dtypes: an integer cast (``int(v)``, ``astype(int)``, ``dtype=int``)
becomes ``float``, and a one-argument rounding call (``round(v)``, ``np.round(x)``, ``np.floor``…)
keeps the value instead (``float(v)``, ``np.asarray(x)``).
An edit replaces one source segment, so comments and layout stay and the fix reads as a small
unified diff. A *change* is one edit or several applied together (ids joined by `` + ``), for
defects that no single edit explains (a window both too far ahead and too long, say).
"""

from __future__ import annotations

import ast
import difflib
import hashlib
import re
from dataclasses import dataclass, replace
from typing import Literal, TypeGuard

from bunseki.investigation.patches import apply_unified_diff

EditKind = Literal["operator", "constant", "default", "dtype", "window", "reducer", "fill", "wrap", "column", "patch"]
JOIN = " + "  # between the edit ids of a change
FLIPS = {ast.Gt: (">", ">="), ast.GtE: (">=", ">"), ast.Lt: ("<", "<="), ast.LtE: ("<=", "<")}
# Conversions people get wrong: ms ↔ s, %, km/h ↔ m/s, g ↔ m/s², minutes and hours ↔ s.
UNIT_FACTORS = (10.0, 100.0, 1000.0, 3.6, 9.80665, 60.0, 3600.0)
INTEGER_TYPES = {"int", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"}
ROUNDING_CALLS = {"round", "around", "rint", "floor", "ceil", "trunc", "fix"}


@dataclass(frozen=True)
class Edit:
    """Replace ``old`` by ``new`` at (line, col)–(end_line, end_col) of the source (1-based lines)."""

    kind: EditKind
    line: int
    col: int
    end_line: int
    end_col: int
    old: str
    new: str
    context: str  # the function and, for defaults, the parameter name

    @property
    def id(self) -> str:
        if self.kind == "patch":  # ``new`` holds a whole unified diff
            return f"patch@{hashlib.sha256(self.new.encode()).hexdigest()[:12]}"
        return f"{self.kind}@{self.line}:{self.col}:{self.old}->{self.new}"

    def describe(self) -> str:
        if self.kind == "patch":
            changed = [line for line in self.new.splitlines() if line[:1] in "+-" and line[:3] not in ("+++", "---")]
            return f"{self.context} ({len(changed)} changed line(s))"
        return f"line {self.line} ({self.context}): {self.old} → {self.new}"


def patch_edit(diff: str, context: str = "the model's patch") -> Edit:
    """A unified diff of the algorithm as an edit: applied whole, alone in its change."""
    return Edit("patch", 0, 0, 0, 0, "", diff, context)


def numeric_constants(source: str) -> list[float]:
    """Every numeric literal of the source (thresholds, windows, defaults)."""
    return [
        float(node.value)
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Constant) and isinstance(node.value, int | float) and not isinstance(node.value, bool)
    ]


def candidate_edits(
    source: str,
    *,
    deltas: tuple[int, ...] = (1, -1),
    float_values: tuple[float, ...] = (),
    factors: tuple[float, ...] = (),
    offsets: tuple[float, ...] = (),
    int_values: tuple[float, ...] = (),
) -> list[Edit]:
    """Every operator flip, every integer constant or default changed by each of ``deltas`` or set to
    each whole number of ``int_values`` (of its order of magnitude: values the documents state), every
    float constant or default set to each of ``float_values`` (values the data or documents show),
    every number multiplied by each of ``factors`` and every number plus each of ``offsets``."""
    extra = (factors, offsets, int_values)
    tree = ast.parse(source)
    lines = source.splitlines()
    edits: list[Edit] = []
    defaults: set[tuple[int, int]] = set()
    for function in ast.walk(tree):
        if isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
            arguments = function.args
            positional = [*arguments.posonlyargs, *arguments.args]
            pairs = list(zip(positional[len(positional) - len(arguments.defaults) :], arguments.defaults, strict=True))
            pairs += [(a, d) for a, d in zip(arguments.kwonlyargs, arguments.kw_defaults, strict=True) if d is not None]
            for argument, default in pairs:
                if _is_number(default):
                    defaults.add((default.lineno, default.col_offset))
                    edits += _number_edits(
                        default, "default", f"{function.name}({argument.arg}=…)", deltas, float_values, *extra
                    )
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            edits += _operator_edits(node, lines, _enclosing(tree, node))
        elif isinstance(node, ast.keyword) and node.arg and _is_number(node.value):
            value = node.value
            if (value.lineno, value.col_offset) not in defaults:
                defaults.add((value.lineno, value.col_offset))
                edits += _number_edits(value, "default", f"{node.arg}=…", deltas, float_values, *extra)
        elif _is_number(node) and (node.lineno, node.col_offset) not in defaults:
            edits += _number_edits(node, "constant", _enclosing(tree, node), deltas, float_values, *extra)
        if isinstance(node, ast.Call):
            edits += _dtype_edits(node, _enclosing(tree, node))
    return _unique(edits)


OPERATORS = (">", ">=", "<", "<=")
_NUMBER = re.compile(r"-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


def proposed_edit(source: str, line: int, old: str, new: str, col: int | None = None) -> Edit | None:
    """A proposed replacement as an `Edit`, if it is one of the simple patterns at a real site.

    ``old`` must be a number literal or a comparison operator found on ``line`` in the AST (at
    ``col`` when it occurs more than once there) and ``new`` a number or another comparison
    operator; anything else is refused (None), so only what the edit machinery can apply and
    describe is ever run.
    """
    old, new = old.strip(), new.strip()
    if old == new:
        return None
    # One candidate per site: every number moved by 1 and every comparison flipped (only the site is used).
    sites = [e for e in candidate_edits(source, deltas=(), offsets=(1.0,)) if e.line == line and e.old == old]
    sites = list({(e.line, e.col): e for e in sites if col is None or e.col == col}.values())
    if len(sites) != 1:
        return None
    site = sites[0]
    if site.kind == "dtype":
        return site if new == site.new else None
    if site.kind == "operator" and new not in OPERATORS:
        return None
    if site.kind != "operator" and not _NUMBER.fullmatch(new):
        return None
    return replace(site, new=new)


def change_id(edits: list[Edit]) -> str:
    return JOIN.join(edit.id for edit in edits)


def resolve(change: str, by_id: dict[str, Edit]) -> list[Edit] | None:
    """The edits of a change id, or None if one of them is unknown or two touch the same text."""
    parts = [by_id.get(part) for part in change.split(JOIN)]
    edits = [edit for edit in parts if edit is not None]
    if len(edits) != len(parts) or len({(e.line, e.col) for e in edits}) != len(edits):
        return None
    return edits


def apply_all(source: str, edits: list[Edit]) -> str:
    """Apply several edits; right-most first, so each one's position still holds."""
    for edit in sorted(edits, key=lambda e: (e.line, e.col), reverse=True):
        source = apply(source, edit)
    return source


def describe_all(edits: list[Edit]) -> str:
    return "; ".join(edit.describe() for edit in edits)


def apply(source: str, edit: Edit) -> str:
    if edit.kind == "patch":
        return apply_unified_diff(source, edit.new)
    lines = source.splitlines(keepends=True)
    if edit.line != edit.end_line:
        raise ValueError("edits span one line")
    text = lines[edit.line - 1]
    if text[edit.col : edit.end_col] != edit.old:
        raise ValueError(f"edit {edit.id} does not match the source")
    lines[edit.line - 1] = text[: edit.col] + edit.new + text[edit.end_col :]
    return "".join(lines)


def unified_diff(source: str, edited: str, name: str) -> str:
    return "".join(
        difflib.unified_diff(
            source.splitlines(keepends=True), edited.splitlines(keepends=True), f"a/{name}", f"b/{name}"
        )
    )


def _is_number(node: ast.AST | None) -> TypeGuard[ast.Constant]:
    return isinstance(node, ast.Constant) and isinstance(node.value, int | float) and not isinstance(node.value, bool)


def _number_edits(
    node: ast.Constant,
    kind: EditKind,
    context: str,
    deltas: tuple[int, ...],
    float_values: tuple[float, ...] = (),
    factors: tuple[float, ...] = (),
    offsets: tuple[float, ...] = (),
    int_values: tuple[float, ...] = (),
) -> list[Edit]:
    if node.end_lineno != node.lineno or node.end_col_offset is None:
        return []
    value = node.value
    if not isinstance(value, int | float):
        return []
    old = ast.unparse(node)
    news: list[str] = []
    if isinstance(value, float):
        news += [repr(round(float(candidate), 10)) for candidate in float_values]
    else:
        news += _integer_news(value, deltas)
        news += [repr(int(v)) for v in int_values if float(v).is_integer() and value and value / 20 <= v <= value * 20]
    for factor in factors:
        scaled = value * factor
        if scaled != 0 and scaled != value:
            news.append(_number_text(scaled, integer=isinstance(value, int)))
    for offset in offsets:
        moved = value + offset
        if moved != value and (moved >= 0 or value < 0 or isinstance(value, float)):
            news.append(_number_text(moved, integer=isinstance(value, int)))
    return [
        Edit(kind, node.lineno, node.col_offset, node.lineno, node.end_col_offset, old, new, context)
        for new in dict.fromkeys(news)
        if new != old
    ]


def _number_text(value: float, *, integer: bool) -> str:
    """An integer stays an integer when the scaled value is whole; otherwise a short float."""
    rounded = round(value, 10)
    if integer and float(rounded).is_integer():
        return repr(int(rounded))
    return repr(float(f"{rounded:.10g}"))


def _integer_news(value: int, deltas: tuple[int, ...]) -> list[str]:
    news = []
    for delta in deltas:
        if value + delta >= 0:
            news.append(repr(value + delta))
    return news


def _operator_edits(node: ast.Compare, lines: list[str], context: str) -> list[Edit]:
    edits = []
    operands = [node.left, *node.comparators]
    for index, op in enumerate(node.ops):
        flip = FLIPS.get(type(op))
        left, right = operands[index], operands[index + 1]
        if flip is None or left.end_lineno != right.lineno or left.end_col_offset is None:
            continue
        line = lines[left.end_lineno - 1]
        segment_start, segment_end = left.end_col_offset, right.col_offset
        found = line.find(flip[0], segment_start, segment_end)
        if found < 0 or (flip[0] in (">", "<") and line[found + 1 : found + 2] == "="):
            continue
        edits.append(
            Edit("operator", right.lineno, found, right.lineno, found + len(flip[0]), flip[0], flip[1], context)
        )
    return edits


def _dtype_edits(call: ast.Call, context: str) -> list[Edit]:
    """An integer cast made a float one, a one-argument rounding call made an identity."""
    func = call.func
    alone = len(call.args) == 1 and not call.keywords
    targets: list[tuple[ast.expr, str]] = []  # the name to replace, and by what
    if isinstance(func, ast.Name) and (func.id == "int" or (func.id == "round" and alone)):
        targets.append((func, "float"))
    elif isinstance(func, ast.Attribute) and func.attr in ROUNDING_CALLS and alone:
        targets.append((func, "asarray"))
    casts = [*call.args[:1]] if isinstance(func, ast.Attribute) and func.attr == "astype" else []
    casts += [k.value for k in call.keywords if k.arg == "dtype"]
    for cast in casts:
        if isinstance(cast, ast.Name) and cast.id in INTEGER_TYPES:
            targets.append((cast, "float"))
        elif isinstance(cast, ast.Attribute) and cast.attr in INTEGER_TYPES:
            targets.append((cast, "float64"))  # np.int64 → np.float64
    edits = []
    for node, new in targets:
        name = node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else ""
        if not name or node.end_col_offset is None or node.end_lineno != node.lineno:
            continue
        end = node.end_col_offset
        edits.append(Edit("dtype", node.lineno, end - len(name), node.lineno, end, name, new, context))
    return edits


def _enclosing(tree: ast.AST, target: ast.AST) -> str:
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            for child in ast.walk(node):
                if child is target:
                    return node.name
    return "module"


def _unique(edits: list[Edit]) -> list[Edit]:
    seen: dict[str, Edit] = {}
    for edit in edits:
        seen.setdefault(edit.id, edit)
    return list(seen.values())

"""The safe arithmetic behind add_calculated_column: an `ast` walk over pandas Series.

Nothing here hands text to Python or pandas to run (no eval, exec, DataFrame.eval or numexpr):
the expression is parsed into a syntax tree and only the node types listed below are evaluated,
each by an explicit pandas or numpy operation. Any other node is refused before it can run.

Grammar (a subset of Python expressions)::

    expression  := operand | expression binop expression | - expression | + expression
                 | ( expression ) | expression compare expression [compare expression …]
                 | expression and expression | expression or expression | not expression
                 | function ( expression [, expression …] )
    operand     := column-name | `any column name` | number | True | False
    binop       := +  -  *  /  //  %  **
    compare     := ==  !=  <  <=  >  >=
    function    := abs | round | log | log10 | sqrt | exp | min | max | where

Column names are Python identifiers (Japanese ones such as 売上金額 included) or, when they hold
spaces or symbols, names in backticks. Division by zero gives NaN, as does log of a number ≤ 0.
"""

from __future__ import annotations

import ast
import operator as op
import re
import unicodedata
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

import numpy as np
import pandas as pd

from bunseki.errors import ToolRetry
from bunseki.tools import _checks

GRAMMAR = (
    "An expression may contain column names (in backticks when they hold spaces or symbols, e.g. `Close Price`), "
    "numbers, + - * / // % **, parentheses, comparisons (== != < <= > >=) joined with and/or/not, and the "
    "functions abs(x), round(x, digits), log(x), log10(x), sqrt(x), exp(x), min(a, b), max(a, b) and "
    "where(condition, a, b)."
)
MAX_LENGTH = 1000  # characters
MAX_NODES = 300  # syntax-tree nodes; each is one vectorised operation over the whole column

_BACKTICKED = re.compile(r"`([^`]*)`")
_PLACEHOLDER = "__bunseki_column_{}__"
_ARITHMETIC: dict[type[ast.operator], Callable[[Any, Any], Any]] = {
    ast.Add: op.add,
    ast.Sub: op.sub,
    ast.Mult: op.mul,
    ast.Div: op.truediv,
    ast.FloorDiv: op.floordiv,
    ast.Mod: op.mod,
    ast.Pow: op.pow,
}
_COMPARE: dict[type[ast.cmpop], Callable[[Any, Any], Any]] = {
    ast.Eq: op.eq,
    ast.NotEq: op.ne,
    ast.Lt: op.lt,
    ast.LtE: op.le,
    ast.Gt: op.gt,
    ast.GtE: op.ge,
}
_UNARY_MATH: dict[str, Callable[[Any], Any]] = {"log": np.log, "log10": np.log10, "sqrt": np.sqrt, "exp": np.exp}
FUNCTIONS = ("abs", "round", "log", "log10", "sqrt", "exp", "min", "max", "where")
_REFUSED: dict[type[ast.AST], str] = {
    ast.Attribute: "attribute access such as a.b",
    ast.Subscript: "indexing such as x[0]",
    ast.Lambda: "lambda functions",
    ast.IfExp: "'x if c else y' (write where(c, x, y))",
    ast.NamedExpr: "assignments",
    ast.JoinedStr: "text",
    ast.List: "lists",
    ast.Tuple: "tuples",
    ast.Set: "sets",
    ast.Dict: "dicts",
    ast.ListComp: "comprehensions",
    ast.SetComp: "comprehensions",
    ast.DictComp: "comprehensions",
    ast.GeneratorExp: "comprehensions",
    ast.Starred: "starred arguments",
    ast.BitAnd: "& (write and)",
    ast.BitOr: "| (write or)",
    ast.Invert: "~ (write not)",
    ast.Is: "'is' (write ==)",
    ast.IsNot: "'is not' (write !=)",
    ast.In: "'in' (compare with == and join with or)",
    ast.NotIn: "'not in' (compare with != and join with and)",
}


def evaluate(frame: pd.DataFrame, expression: str) -> pd.Series:
    """The value of ``expression`` for every row of ``frame``, as a Series on the frame's index."""
    if not expression.strip():
        raise ToolRetry(f"expression is empty. {GRAMMAR}")
    if len(expression) > MAX_LENGTH:
        raise ToolRetry(f"expression is longer than {MAX_LENGTH:,} characters; split it into several columns.")
    source, quoted = _replace_backticks(expression)
    try:
        tree = ast.parse(source.strip(), mode="eval")
    except SyntaxError as error:
        raise ToolRetry(f"'{expression}' is not a valid expression ({error.msg}). {GRAMMAR}") from None
    if sum(1 for _ in ast.walk(tree)) > MAX_NODES:
        raise ToolRetry(f"expression is too complex (over {MAX_NODES} parts); split it into several columns.")
    return _Evaluator(frame, quoted).value(tree.body).rename(None)


def _replace_backticks(expression: str) -> tuple[str, dict[str, str]]:
    """The expression with each `quoted name` replaced by a placeholder identifier, and the mapping."""
    quoted: dict[str, str] = {}

    def placeholder(match: re.Match[str]) -> str:
        if not match.group(1):
            raise ToolRetry(f"'{expression}' has empty backticks; put a column name between them.")
        name = _PLACEHOLDER.format(len(quoted))
        quoted[name] = match.group(1)
        return f" {name} "

    source = _BACKTICKED.sub(placeholder, expression)
    if "`" in source:
        raise ToolRetry(f"'{expression}' has an unclosed backtick; write names with spaces as `Close Price`.")
    return source, quoted


class _Evaluator:
    """Walks one parsed expression; every value is a Series aligned with the frame's index."""

    def __init__(self, frame: pd.DataFrame, quoted: dict[str, str]) -> None:
        self.frame = frame
        self.quoted = quoted
        # Python folds identifiers to NFKC (ｶﾅ → カナ), so a column is also found by its folded name.
        labels = [label for label in frame.columns if isinstance(label, str)]
        self.names = {unicodedata.normalize("NFKC", label): label for label in labels}
        self.names.update({label: label for label in labels})

    def value(self, node: ast.expr) -> pd.Series:
        match node:
            case ast.Name(id=name):
                return self._column(name)
            case ast.Constant(value=bool() | int() | float() as number):
                return pd.Series(number, index=self.frame.index)
            case ast.UnaryOp(op=ast.Not(), operand=operand):
                return ~self._condition(operand)
            case ast.UnaryOp(op=ast.USub() | ast.UAdd() as sign, operand=operand):
                value = _as_numbers(self.value(operand))
                return self._attempt(node, lambda: -value if isinstance(sign, ast.USub) else +value, [value])
            case ast.BinOp(left=left, op=binop, right=right) if type(binop) in _ARITHMETIC:
                return self._arithmetic(node, binop, self.value(left), self.value(right))
            case ast.Compare(left=left, ops=ops, comparators=comparators):
                return self._compare(node, [left, *comparators], ops)
            case ast.BoolOp(op=boolop, values=values):
                conditions = [self._condition(value) for value in values]
                combine = op.and_ if isinstance(boolop, ast.And) else op.or_
                result = conditions[0]
                for condition in conditions[1:]:
                    result = combine(result, condition)
                return result
            case ast.Call(func=ast.Name(id=name), args=args, keywords=[]) if name in FUNCTIONS:
                return self._call(node, name, args)
        raise self._refusal(node)

    def _column(self, name: str) -> pd.Series:
        label = self.quoted.get(name) or self.names.get(name) or self.names.get(unicodedata.normalize("NFKC", name))
        if label is None:
            error = _checks.unknown("column", name, [str(label) for label in self.frame.columns])
            raise ToolRetry(f"{error} {GRAMMAR}")
        return _checks.column(self.frame, label)

    def _arithmetic(self, node: ast.expr, binop: ast.operator, left: pd.Series, right: pd.Series) -> pd.Series:
        left, right = _as_numbers(left), _as_numbers(right)
        if isinstance(binop, ast.Pow) and all(_checks.kind_of(side) == "number" for side in (left, right)):
            left, right = left.astype("float64"), right.astype("float64")  # int ** -1 is an error in numpy
        result = self._attempt(node, lambda: _ARITHMETIC[type(binop)](left, right), [left, right])
        if _checks.kind_of(right) != "number":
            return result
        if isinstance(binop, ast.Div | ast.FloorDiv | ast.Mod):
            return result.mask(right == 0)
        if isinstance(binop, ast.Pow):
            return result.mask((left == 0) & (right < 0))  # 0 ** -1 divides by zero too
        return result

    def _compare(self, node: ast.expr, operands: Sequence[ast.expr], ops: Sequence[ast.cmpop]) -> pd.Series:
        values = [self.value(operand) for operand in operands]
        result: pd.Series | None = None
        for left, right, compare in zip(values, values[1:], ops, strict=False):
            if type(compare) not in _COMPARE:
                raise self._refusal(compare)
            step = self._attempt(node, partial(_COMPARE[type(compare)], left, right), [left, right])
            result = step if result is None else result & step
        assert result is not None
        return result

    def _call(self, node: ast.Call, name: str, args: list[ast.expr]) -> pd.Series:
        arity = {"round": (1, 2), "min": (2, 2), "max": (2, 2), "where": (3, 3)}.get(name, (1, 1))
        if not arity[0] <= len(args) <= arity[1]:
            counts = " or ".join(str(count) for count in sorted(set(arity)))
            plural = "s" if arity[1] > 1 else ""
            raise ToolRetry(
                f"{name}() takes {counts} argument{plural}, not {len(args)}: '{self._text(node)}'. {GRAMMAR}"
            )
        if name == "where":
            condition = self._condition(args[0])
            return self.value(args[1]).where(condition, self.value(args[2]))
        if name in ("min", "max"):
            first, second = self.value(args[0]), self.value(args[1])
            pair = pd.concat([first, second], axis=1)
            pick = pair.min if name == "min" else pair.max
            return self._attempt(node, lambda: pick(axis=1, skipna=False), [first, second])
        operand = self._numbers(node, name, self.value(args[0]))
        if name == "abs":
            return operand.abs()
        if name == "round":
            return operand.round(self._digits(args[1]) if len(args) == 2 else 0)
        with np.errstate(all="ignore"):
            result = pd.Series(_UNARY_MATH[name](operand.astype("float64")), index=self.frame.index)
        return result.mask(operand <= 0) if name in ("log", "log10") else result

    def _condition(self, node: ast.expr) -> pd.Series:
        value = self.value(node)
        if _checks.kind_of(value) != "boolean":
            raise ToolRetry(
                f"'{self._text(node)}' is not a condition; and, or, not and where() need comparisons "
                f"such as 売上 > 1000. {GRAMMAR}"
            )
        return value.fillna(False).astype(bool)

    def _numbers(self, node: ast.expr, name: str, value: pd.Series) -> pd.Series:
        kind = _checks.kind_of(value)
        if kind not in ("number", "boolean"):
            raise ToolRetry(f"{name}() needs numbers, but '{self._text(node)}' works on {_checks.HOLDS[kind]}.")
        return _as_numbers(value)

    def _digits(self, node: ast.expr) -> int:
        match node:
            case ast.Constant(value=int() as digits) if not isinstance(digits, bool):
                return digits
            case ast.UnaryOp(op=ast.USub(), operand=ast.Constant(value=int() as digits)):
                return -digits
        raise ToolRetry(f"round() takes a whole number of digits, as in round(x, 2), not '{self._text(node)}'.")

    def _attempt(self, node: ast.expr, compute: Callable[[], pd.Series], operands: Sequence[pd.Series]) -> pd.Series:
        """Run one pandas operation; a type mismatch becomes a refusal that says what the operands hold."""
        try:
            with np.errstate(all="ignore"):
                return compute()
        except (TypeError, ValueError, NotImplementedError, ArithmeticError):
            held = " and ".join(_checks.HOLDS[_checks.kind_of(operand)] for operand in operands)
            raise ToolRetry(
                f"'{self._text(node)}' cannot be computed: its operands hold {held}. Arithmetic, comparisons "
                "and min/max need numbers (or dates, whose differences are durations)."
            ) from None

    def _refusal(self, node: ast.AST) -> ToolRetry:
        match node:
            case ast.Call(func=ast.Name(id=name)) if name not in FUNCTIONS:
                return ToolRetry(f"{name}() is not an allowed function; allowed: {', '.join(FUNCTIONS)}. {GRAMMAR}")
            case ast.Call(func=ast.Attribute()):
                what = _REFUSED[ast.Attribute]
            case ast.Call(keywords=[_, *_]):
                what = "keyword arguments such as round(x, ndigits=2) (write round(x, 2))"
            case ast.Constant(value=str() | bytes()):
                what = "text such as 'text' (columns of text can only be compared with each other)"
            case ast.Constant(value=value):
                what = f"the constant {value!r}"
            case ast.BinOp(op=binop) | ast.UnaryOp(op=binop):
                what = _REFUSED.get(type(binop), f"the operator in '{self._text(node)}'")
            case _:
                what = _REFUSED.get(type(node), f"'{self._text(node)}'")
        return ToolRetry(f"Expressions may not contain {what}. {GRAMMAR}")

    def _text(self, node: ast.AST) -> str:
        """The source of ``node`` as the caller wrote it, with backticked names restored."""
        text = ast.unparse(node)
        for placeholder, name in self.quoted.items():
            text = text.replace(placeholder, f"`{name}`")
        return text


def _as_numbers(value: pd.Series) -> pd.Series:
    """True/false values as 1/0: in numpy, True + True is True and -True is False."""
    if _checks.kind_of(value) != "boolean":
        return value
    return value.astype("float64" if value.hasnans else "int64")  # a nullable boolean may hold NA

"""The expression evaluator computes what pandas would and refuses everything outside its grammar."""

from __future__ import annotations

import ast
import inspect
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from bunseki.errors import ToolRetry
from bunseki.tools import expressions
from bunseki.tools.expressions import GRAMMAR, MAX_LENGTH, evaluate
from tests.tools import sales, stocks

FRAME = sales()
PRICES = stocks()


def test_arithmetic_follows_python_precedence() -> None:
    result = evaluate(FRAME, "売上 - 数量 * 2 ** 2 / 4 + -数量")
    expected = FRAME["売上"] - FRAME["数量"] * 2**2 / 4 + -FRAME["数量"]
    pd.testing.assert_series_equal(result, expected, check_names=False)
    assert result.index.equals(FRAME.index) and result.name is None


def test_floor_division_modulo_and_parentheses() -> None:
    result = evaluate(FRAME, "(売上 + 1) // 7 % 5")
    expected = ((FRAME["売上"] + 1) // 7 % 5).astype("float64")
    pd.testing.assert_series_equal(result, expected, check_names=False)


@pytest.mark.parametrize("expression", ["売上 / 数量", "売上 // 数量", "売上 % 数量", "数量 ** -1", "1 / 0"])
def test_division_by_zero_gives_nan(expression: str) -> None:
    result = evaluate(FRAME, expression)
    zero = FRAME["数量"] == 0 if "数量" in expression else pd.Series(True, index=FRAME.index)
    assert zero.any()
    assert result[zero].isna().all()
    assert not np.isinf(result).any()


def test_comparisons_give_booleans_and_chain() -> None:
    between = evaluate(FRAME, "5 <= 数量 < 10")
    pd.testing.assert_series_equal(between, (FRAME["数量"] >= 5) & (FRAME["数量"] < 10), check_names=False)
    assert between.dtype == bool
    unequal = evaluate(PRICES, "`Open Price` != `Close Price`")
    assert unequal.all()


def test_and_or_not_combine_conditions() -> None:
    result = evaluate(FRAME, "not (数量 > 10) and 売上 > 1000 or 会員")
    expected = (~(FRAME["数量"] > 10) & (FRAME["売上"] > 1000)) | FRAME["会員"]
    pd.testing.assert_series_equal(result, expected, check_names=False)


def test_functions_work_elementwise() -> None:
    close = PRICES["Close Price"]
    with np.errstate(all="ignore"):
        cases = {
            "abs(`Open Price` - `Close Price`)": (PRICES["Open Price"] - close).abs(),
            "round(`Close Price`, 1)": close.round(1),
            "round(Volume, -3)": PRICES["Volume"].round(-3),
            "log(`Close Price`)": np.log(close),
            "log10(Volume)": np.log10(PRICES["Volume"].astype("float64")),
            "sqrt(Volume)": np.sqrt(PRICES["Volume"].astype("float64")),
            "exp(`Close Price` / 100)": np.exp(close / 100),
        }
    for expression, expected in cases.items():
        pd.testing.assert_series_equal(evaluate(PRICES, expression), expected, check_names=False, obj=expression)


def test_min_max_are_elementwise_and_keep_missing_values_missing() -> None:
    low = evaluate(FRAME, "min(売上, 数量 * 1000)")
    high = evaluate(FRAME, "max(売上, 数量 * 1000)")
    present = FRAME["売上"].notna()
    assert (low[present] == np.minimum(FRAME["売上"], FRAME["数量"] * 1000)[present]).all()
    assert (high[present] == np.maximum(FRAME["売上"], FRAME["数量"] * 1000)[present]).all()
    assert low[~present].isna().all() and high[~present].isna().all()


def test_where_picks_per_row() -> None:
    result = evaluate(FRAME, "where(売上 >= 10000, 1, 0)")
    assert result.tolist() == (FRAME["売上"] >= 10_000).astype(int).tolist()
    tiers = evaluate(FRAME, "where(会員, 売上 * 0.9, 売上)")
    pd.testing.assert_series_equal(tiers, FRAME["売上"].where(~FRAME["会員"], FRAME["売上"] * 0.9), check_names=False)


def test_true_false_columns_count_as_one_and_zero() -> None:
    assert evaluate(FRAME, "会員 + 会員").tolist() == (FRAME["会員"].astype(int) * 2).tolist()
    assert evaluate(FRAME, "-会員").tolist() == (-FRAME["会員"].astype(int)).tolist()


def test_log_of_zero_or_less_is_missing() -> None:
    result = evaluate(FRAME, "log(数量)")
    assert result[FRAME["数量"] == 0].isna().all()
    assert result[FRAME["数量"] > 0].notna().all()


def test_a_constant_fills_the_column() -> None:
    assert evaluate(FRAME, "1.08").tolist() == [1.08] * 600


def test_japanese_and_half_width_kana_names() -> None:
    frame = pd.DataFrame({"売上金額": [100.0, 200.0], "ﾎﾟｲﾝﾄ": [1, 2], "税率 (%)": [10, 8]})
    result = evaluate(frame, "売上金額 * (1 + `税率 (%)` / 100) - ﾎﾟｲﾝﾄ")
    assert result.tolist() == pytest.approx([109.0, 214.0])


HOSTILE = [
    "__import__('os').system('touch {tmp}/pwned')",
    "open('{tmp}/pwned', 'w')",
    "df.to_csv('{tmp}/pwned')",
    "().__class__",
    "().__class__.__bases__[0].__subclasses__()",
    "a.b",
    "x[0]",
    "lambda: 1",
    "'text'",
    "売上.sum()",
    "eval('1')",
    "exec('x=1')",
    "getattr(売上, 'sum')()",
    "[c for c in 売上]",
    "(x := 1)",
    "売上 if 会員 else 0",
    "f'{{売上}}'",
    "売上 & 数量",
    "~会員",
    "売上 is None",
    "round(売上, ndigits=2)",
    "__builtins__",
]


@pytest.mark.parametrize("template", HOSTILE)
def test_hostile_expressions_are_refused_without_running(template: str, tmp_path: Path) -> None:
    expression = template.format(tmp=tmp_path)
    with pytest.raises(ToolRetry) as raised:
        evaluate(FRAME, expression)
    message = str(raised.value)
    assert "abs, round" in message or "abs(x), round(x, digits)" in message  # the allowed functions are named
    assert not (tmp_path / "pwned").exists()


@pytest.mark.parametrize(
    ("expression", "expected"),
    [
        ("__import__('os')", "__import__() is not an allowed function; allowed: abs, round, log, log10, sqrt"),
        ("a.b", "Expressions may not contain attribute access such as a.b."),
        ("x[0]", "Expressions may not contain indexing such as x[0]."),
        ("lambda: 1", "Expressions may not contain lambda functions."),
        ("'text'", "Expressions may not contain text such as 'text'"),
        ("売上 if 会員 else 0", "write where(c, x, y)"),
        ("売上 & 数量", "& (write and)"),
        ("売り上げ * 2", "There is no column '売り上げ'. Did you mean '売上'"),
        ("__class__", "There is no column '__class__'"),
        ("売上 +", "'売上 +' is not a valid expression"),
        ("`Close Price", "unclosed backtick"),
        ("`` + 1", "empty backticks"),
        ("   ", "expression is empty"),
        ("min(売上)", "min() takes 2 arguments, not 1"),
        ("round(売上, 売上)", "round() takes a whole number of digits, as in round(x, 2)"),
        ("where(数量, 1, 0)", "'数量' is not a condition"),
        ("sqrt(地域)", "sqrt() needs numbers, but 'sqrt(地域)' works on text"),
        ("売上 - 地域", "'売上 - 地域' cannot be computed: its operands hold numbers and text"),
        ("日付 > 1", "'日付 > 1' cannot be computed: its operands hold dates and numbers"),
    ],
)
def test_refusals_say_what_is_wrong(expression: str, expected: str) -> None:
    with pytest.raises(ToolRetry, match=re.escape(expected)):
        evaluate(FRAME, expression)


def test_backticked_names_are_restored_in_messages() -> None:
    with pytest.raises(ToolRetry, match="'`Close Price` - Ticker' cannot be computed"):
        evaluate(PRICES, "`Close Price` - Ticker")


def test_length_and_size_limits() -> None:
    with pytest.raises(ToolRetry, match=f"longer than {MAX_LENGTH:,} characters"):
        evaluate(FRAME, "売上 + " * 200 + "1")
    with pytest.raises(ToolRetry, match="too complex"):
        evaluate(FRAME, "+".join(["1"] * 200))


def test_date_differences_are_durations() -> None:
    result = evaluate(FRAME, "日付 - 日付")
    assert pd.api.types.is_timedelta64_dtype(result) and (result == pd.Timedelta(0)).all()


def test_the_grammar_message_lists_every_function() -> None:
    assert all(f"{name}(" in GRAMMAR for name in expressions.FUNCTIONS)


def test_the_evaluator_never_calls_eval_exec_or_compile() -> None:
    calls = [node.func for node in ast.walk(ast.parse(inspect.getsource(expressions))) if isinstance(node, ast.Call)]
    builtins = {func.id for func in calls if isinstance(func, ast.Name)}
    methods = {func.attr for func in calls if isinstance(func, ast.Attribute)}
    assert not builtins & {"eval", "exec", "compile", "__import__", "getattr"}
    assert not methods & {"eval", "query"}  # DataFrame.eval and DataFrame.query would run numexpr or Python
    imports = [node for node in ast.walk(ast.parse(inspect.getsource(expressions))) if isinstance(node, ast.Import)]
    assert "numexpr" not in {alias.name for node in imports for alias in node.names}

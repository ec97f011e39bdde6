"""Model numbers against executed output, and a model's proposed edit as an AST edit."""

from __future__ import annotations

from bunseki.investigation.edits import apply, proposed_edit
from bunseki.investigation.grounding import numbers_in, redact, ungrounded

SOURCE = """def f(x, level=0.5, n=3):
    return [v > level for v in x[: n + 1]] + [v > 1 for v in x]
"""


def test_numbers_are_compared_by_value_and_identifiers_are_not_numbers() -> None:
    assert numbers_in("H2 and x1 at frames 40-59, level 0.80, z=1.") == {40.0, 59.0, 0.8, 1.0}
    assert ungrounded("runs start 2 frames late at 0.80; 7 more", '{"shift": [2], "level": 0.8}') == ["7"]
    assert redact("H1: 5 frames at 0.8", "level 0.8") == ("H1: [?] frames at 0.8", ["5"])


def test_numbers_in_japanese_text_count_too() -> None:
    assert numbers_in("フレーム12-13で出力が2フレーム遅れ、閾値0.8を超えた１２件") == {12.0, 13.0, 2.0, 0.8}
    assert ungrounded("フレーム40から遅れています", "[12, 13]") == ["40"]


def test_a_proposed_number_or_operator_becomes_an_edit_at_its_site() -> None:
    default = proposed_edit(SOURCE, 1, "0.5", "0.45")
    assert default is not None and default.kind == "default" and "level=0.45" in apply(SOURCE, default)
    assert proposed_edit(SOURCE, 2, "1", "2") is None  # two 1s on the line: which one is not said
    constant = proposed_edit(SOURCE, 2, "1", "2", col=SOURCE.splitlines()[1].index("1"))
    assert constant is not None and "n + 2" in apply(SOURCE, constant)
    assert proposed_edit(SOURCE, 2, ">", ">=") is None  # two comparisons, likewise
    column = SOURCE.splitlines()[1].index(">")
    chosen = proposed_edit(SOURCE, 2, ">", ">=", col=column)
    assert chosen is not None and "[v >= level" in apply(SOURCE, chosen)


def test_anything_else_is_refused() -> None:
    assert proposed_edit(SOURCE, 1, "level", "0.4") is None  # a name
    assert proposed_edit(SOURCE, 1, "0.5", "import os") is None  # not a number
    assert proposed_edit(SOURCE, 2, "0.5", "0.4") is None  # not on that line
    assert proposed_edit(SOURCE, 1, "0.5", "0.5") is None  # no change
    assert proposed_edit(SOURCE, 2, ">", "==", col=SOURCE.splitlines()[1].index(">")) is None

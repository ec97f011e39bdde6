"""Numbers in an answer must appear in its sources, up to rounding and percentages."""

from __future__ import annotations

from decimal import Decimal

import pytest

from bunseki.brain.grounding import numbers_in, ungrounded


@pytest.mark.parametrize(
    ("text", "numbers"),
    [
        ("平均は3.5です", ["3.5"]),
        ("売上は 1,234,567 円", ["1234567"]),
        ("変化は -2.25 ポイント", ["-2.25"]),
        ("claude-sonnet-4-5 と gpt-4o と col_3 と Q1", []),
        ("根拠は [2] と [13] です", []),
        ("2024年の売上", ["2024"]),
    ],
)
def test_numbers_in(text: str, numbers: list[str]) -> None:
    assert numbers_in(text) == [Decimal(n) for n in numbers]


@pytest.mark.parametrize(
    "answer",
    [
        "平均は 3.09 です",  # rounded from 3.0897
        "平均は 3 です",  # small counts always pass
        "割合は 15.3% です",  # 0.153 as a percentage
        "合計は 12,000 円",  # thousands separators
        "2024年の平均は 3.1",  # a year from the question
        "減少幅は 7.5",  # the sign is not a number of its own
    ],
)
def test_supported_numbers(answer: str) -> None:
    assert ungrounded(answer, ["mean 3.0897 share 0.153 total 12000 change -7.5", "2024年について"]) == []


def test_unsupported_numbers_are_listed_once_as_written() -> None:
    assert ungrounded("平均は 3.2、最大は 99 と 99", ["mean 3.0897"]) == ["3.2", "99"]

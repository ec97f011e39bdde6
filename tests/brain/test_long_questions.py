"""No question can keep the offline parser busy: every reader of the question runs in linear time.

A question of repeated words ("sales " × 20,000) used to keep a core at 100 % for minutes: lazy
runs in regular expressions were retried from every position, and spans were compared with
every earlier span. The cases below are the worst found while fixing it (each took 14 s to
minutes on 20,000 characters before; well under a second after). The bound is on the parsing
thread's CPU time, and generous: the machines running the tests are shared, in parallel workers.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bunseki.brain.analyst.contract import AnalystView
from bunseki.brain.analyst.offline import MAX_QUESTION_CHARS, OfflineAnalystBrain, commands
from bunseki.brain.analyst.offline.parse import plan_question
from bunseki.brain.analyst.offline.plan import Plan
from bunseki.brain.analyst.offline.text import Spans
from bunseki.data import load_table
from bunseki.data.summary import DataFrameInfo, summarize
from bunseki.samples import SALES_CSV

LENGTH = 20_000
# CPU seconds per call (the parsing thread's own time, which other work on the machine does not
# stretch); each takes well under one.
BOUND = 5.0

JAPANESE = summarize(load_table(SALES_CSV).frame)
ENGLISH = summarize(
    pd.DataFrame(
        {
            "region": ["East", "West"] * 5,
            "sales": [float(n) for n in range(10)],
            "units": range(10),
            "date": pd.date_range("2024-01-01", periods=10),
        }
    )
)
# Pieces that the question readers look for: words, numbers as people write them, dates, units,
# answer-format slots, comparison words, and the punctuation between them.
PIECES = [
    "sales ",
    "sales",
    " per ",
    "ratio of ",
    " to ",
    "売上",
    "あたり",
    "の",
    "1",
    "1,",
    "1.",
    "1万",
    "2024年",
    "1月",
    "2日",
    "between ",
    " and ",
    "~",
    "@a[",
    "]",
    "True ",
    "remov",
    "iqr",
    "z score ",
    "以上",
    "more than ",
    "top ",
    "3",
    "?",
    "？",
    " ",
    "\n",
    "'",
    "每个",
    "的",
    "East",
    "関東",
    "by ",
    "別",
]


def parsers() -> list[tuple[str, Callable[[str, DataFrameInfo], object]]]:
    return [
        ("plan_question", lambda text, info: plan_question(text, info, "en")),
        ("answer format", lambda text, info: plan_question("@a[x] " + text, info, "en")),
        ("plan_commands", lambda text, info: commands.plan_commands(text, info, "ja")),
    ]


def assert_fast(text: str) -> None:
    for info in (JAPANESE, ENGLISH):
        for name, parse in parsers():
            started = time.thread_time()
            parse(text, info)
            elapsed = time.thread_time() - started
            assert elapsed < BOUND, f"{name} took {elapsed:.1f} s of CPU on {text[:40]!r}… ({len(text)} characters)"


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.lists(st.sampled_from(PIECES), min_size=1, max_size=5))
def test_repeated_pieces_are_read_in_linear_time(pieces: list[str]) -> None:
    unit = "".join(pieces)
    assert_fast((unit * (LENGTH // len(unit) + 1))[:LENGTH])


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.text(min_size=1, max_size=30))
def test_any_repeated_text_is_read_in_linear_time(unit: str) -> None:
    assert_fast((unit * (LENGTH // len(unit) + 1))[:LENGTH])


@pytest.mark.parametrize(
    "text",
    [
        "売上" * (LENGTH // 2),  # a lazy run before あたり, retried from every position
        "1" * LENGTH,  # a number range retried from every digit
        "1," * (LENGTH // 2),
        "1月2日" * (LENGTH // 4),  # the question's year searched again for each date
        "@a[x] " + "1" * LENGTH,  # the IQR multiplier in answer formats
        "sales " * (LENGTH // 6),  # a pasted repeated word, as reported
    ],
    ids=["kanji", "digits", "digits-commas", "dates", "format-digits", "repeated-word"],
)
def test_worst_cases_found(text: str) -> None:
    assert_fast(text)


def test_the_offline_analyst_refuses_an_over_long_question_with_a_clear_message() -> None:
    brain = OfflineAnalystBrain()
    long = "sales " * 20_000
    for language, expected in (("en", "too long"), ("ja", "長すぎ")):
        started = time.perf_counter()
        decision = brain.decide(AnalystView(question=long, language=language, data=ENGLISH))
        assert time.perf_counter() - started < BOUND
        assert decision.next_action == "ask"
        assert expected in (decision.question or "")
        assert f"{MAX_QUESTION_CHARS:,}" in (decision.question or "")


def test_a_question_at_the_limit_is_still_read() -> None:
    question = "What is the total sales?" + " " * (MAX_QUESTION_CHARS - 24)
    decision = OfflineAnalystBrain().decide(AnalystView(question=question, language="en", data=ENGLISH))
    assert decision.next_action == "act"


def test_spans_find_overlaps_like_a_scan_of_every_span() -> None:
    kept = Spans([(10, 20), (15, 25), (40, 50)])  # given spans may overlap: they are merged
    assert kept.overlaps((24, 26)) and kept.overlaps((0, 11)) and kept.overlaps((45, 46))
    assert not kept.overlaps((25, 40)) and not kept.overlaps((0, 10)) and not kept.overlaps((50, 60))
    kept.add((30, 35))
    assert kept.overlaps((34, 36)) and not kept.overlaps((35, 40))


def test_ordinary_questions_read_as_before() -> None:
    """Bounded phrases still find ratios and groups in ordinary questions."""
    per_customer = plan_question("客数あたりの売上金額の平均", JAPANESE, "ja")
    assert isinstance(per_customer, Plan) and per_customer.derived is not None
    assert (per_customer.derived.left, per_customer.derived.right) == ("売上金額", "客数")
    for question in ("What is the average sales per unit?", "ratio of sales to units"):
        english = plan_question(question, ENGLISH, "en")
        assert isinstance(english, Plan) and english.derived is not None
        assert (english.derived.left, english.derived.right) == ("sales", "units")
    grouped = plan_question("地域別の売上金額の合計", JAPANESE, "ja")
    assert isinstance(grouped, Plan)
    assert (grouped.task, grouped.group_by, grouped.target, grouped.stat) == ("group", "地域", "売上金額", "sum")

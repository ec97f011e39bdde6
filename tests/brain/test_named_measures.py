"""The offline analyst never answers about another column than the one the question names.

A measure the table does not have, a column that holds text, or one that is entirely empty
gets a question back that names the problem and lists the numeric columns that could be
meant (never an empty list). Words mapped on purpose (synonyms, Japanese and English names,
close spellings) still work, and the plan names the column used.
"""

from __future__ import annotations

import pandas as pd
import pytest

from bunseki.brain.analyst.offline.parse import plan_question
from bunseki.brain.analyst.offline.plan import Clarification, Plan
from bunseki.brain.language import detect_language
from bunseki.data import load_table
from bunseki.data.summary import DataFrameInfo, summarize
from bunseki.samples import SALES_CSV

SAMPLE = summarize(load_table(SALES_CSV).frame)  # 日付 地域 都道府県 店舗 商品カテゴリ 数量 売上金額 客数
SHOP = summarize(
    pd.DataFrame(
        {
            "region": ["East", "West", "East", "North"],
            "sales": [10.0, 20.0, 30.0, 40.0],
            "units": [1, 2, 3, 4],
            "price": ["1,50", "2,00", "3,10", "4,00"],  # decimal commas read as text
            "notes": [None, None, None, None],
            "score": [float("nan")] * 4,
        }
    )
)
WORDS_ONLY = summarize(pd.DataFrame({"city": ["Tokyo", "Osaka"], "name": ["a", "b"]}))


def plan(question: str, info: DataFrameInfo) -> Plan | Clarification:
    return plan_question(question, info, detect_language(question))


def asked(question: str, info: DataFrameInfo) -> str:
    planned = plan(question, info)
    assert isinstance(planned, Clarification), f"{question!r} was answered: {planned}"
    return planned.question


@pytest.mark.parametrize(
    "question",
    [
        "What is the average profit by region?",
        "What is the total profit?",
        "Show the median margin for each region",
    ],
)
def test_a_measure_the_table_lacks_is_asked_about_in_english(question: str) -> None:
    text = asked(question, SHOP)
    assert "no column called" in text
    assert "sales" in text and "units" in text  # the columns that could be meant


@pytest.mark.parametrize(
    "question", ["地域別の利益の平均は？", "利益の合計を教えて", "店舗別の平均気温", "地域別利益合計"]
)
def test_a_measure_the_table_lacks_is_asked_about_in_japanese(question: str) -> None:
    text = asked(question, SAMPLE)
    assert "という列はこのデータにありません" in text
    assert "売上金額" in text and "客数" in text


def test_an_entirely_empty_column_is_named_not_replaced() -> None:
    for question in ("What is the average score by region?", "What is the total of notes?"):
        text = asked(question, SHOP)
        assert "entirely empty" in text and "sales" in text
    assert "score" not in asked("What is the average score by region?", SHOP).split("Numeric columns:")[1]


def test_a_column_read_as_text_is_named_not_replaced() -> None:
    text = asked("What is the average price?", SHOP)
    assert "'price' holds text" in text and "sales, units" in text


def test_without_numeric_columns_the_question_says_so() -> None:
    for question in ("What is the average profit?", "What is the average?"):
        text = asked(question, WORDS_ONLY)
        assert "no numeric column" in text and "city" in text
        assert not text.rstrip().endswith(":")  # never an empty list of candidates


@pytest.mark.parametrize(
    ("question", "info", "target"),
    [
        ("関東の売上合計は？", SAMPLE, "売上金額"),  # a concept word for a longer Japanese name
        ("売上の平均値", SAMPLE, "売上金額"),
        ("店舗別の平均客数", SAMPLE, "客数"),
        ("What is the total revenue?", SHOP, "sales"),  # an English synonym
        ("What is the average salees by region?", SHOP, "sales"),  # a close spelling
        ("average sales for the East region", SHOP, "sales"),
        ("客単価の平均", SAMPLE, "客単価"),  # a ratio of two named columns
    ],
)
def test_words_mapped_on_purpose_still_work(question: str, info: DataFrameInfo, target: str) -> None:
    planned = plan(question, info)
    assert isinstance(planned, Plan), planned
    assert planned.target == target


@pytest.mark.parametrize("question", ["全体の平均は？", "What is the mean?", "2024年の合計"])
def test_words_that_name_no_measure_ask_which_column(question: str) -> None:
    text = asked(question, SAMPLE)
    assert "ありません" not in text and "no column called" not in text
    assert "売上金額" in text


def test_an_assumed_measure_is_said_in_the_plan() -> None:
    """'by region' with no measure named: the additive column is used, and the plan says so."""
    planned = plan("Show the figures by region as a chart", SHOP)
    assert isinstance(planned, Plan) and planned.target == "sales"
    assert any("sales" in assumption for assumption in planned.assumptions)

"""The typed parts of a question the offline brain fills against a table's schema (no sandbox)."""

from __future__ import annotations

from datetime import date

import pandas as pd
import pytest

from bunseki.brain.analyst.offline import commands, dates
from bunseki.data.summary import DataFrameInfo, summarize
from tests.brain.planning import plan


@pytest.fixture(scope="module")
def orders() -> DataFrameInfo:
    days = pd.date_range("2023-04-01", periods=730, freq="D")
    return summarize(
        pd.DataFrame(
            {
                "注文日": days,
                "会員": ["yes", "no"] * (len(days) // 2),
                "カテゴリ": ["本", "服", "家電"] * (len(days) // 3) + ["本"] * (len(days) % 3),
                "金額": range(len(days)),
                "送料": [500, 0] * (len(days) // 2),
            }
        )
    )


@pytest.fixture(scope="module")
def bills() -> DataFrameInfo:
    return summarize(
        pd.DataFrame(
            {
                "total_bill": [10.0, 20.0, 30.0, 40.0],
                "tip": [1.0, 3.0, 4.0, 6.0],
                "smoker": ["Yes", "No", "No", "Yes"],
                "time": ["Lunch", "Dinner", "Dinner", "Lunch"],
            }
        )
    )


def test_a_formula_in_symbols_becomes_the_measure(orders: DataFrameInfo) -> None:
    planned = plan("送料の比率（送料÷金額）の平均を教えて", orders)
    assert planned.derived is not None and planned.target == planned.derived.name
    assert planned.derived.expression == "(data['送料'] / data['金額'])"
    assert planned.stat == "mean"


def test_a_formula_in_words_with_numbers(bills: DataFrameInfo) -> None:
    planned = plan("Compute the tip rate as tip divided by total_bill times 100 and give its median", bills, "en")
    assert planned.derived is not None
    assert planned.derived.expression == "data['tip'] / data['total_bill'] * 100"
    assert planned.stat == "median"


def test_a_yes_no_column_named_by_a_word_is_a_condition(bills: DataFrameInfo) -> None:
    smokers = plan("How many customers were smokers?", bills, "en")
    assert [(f.column, f.op, f.value) for f in smokers.filters] == [("smoker", "==", "Yes")]
    others = plan("What is the average tip for non-smokers?", bills, "en")
    assert [(f.column, f.value) for f in others.filters] == [("smoker", "No")]


def test_a_share_asked_as_a_percentage(orders: DataFrameInfo) -> None:
    planned = plan("本の金額は全体の何％？", orders)
    assert planned.task == "ratio" and planned.ratio is not None and planned.ratio.kind == "share"
    assert [(f.column, f.value) for f in planned.ratio.part] == [("カテゴリ", "本")]
    assert planned.target == "金額" and not planned.filters


def test_a_share_of_rows_when_no_measure_is_named(bills: DataFrameInfo) -> None:
    planned = plan("What percentage of customers were smokers?", bills, "en")
    assert planned.task == "ratio" and planned.target is None


def test_a_change_between_two_fiscal_periods(orders: DataFrameInfo) -> None:
    planned = plan("2024年度上期は2023年度上期に比べて金額が何%増えましたか？", orders)
    assert planned.task == "ratio" and planned.ratio is not None and planned.ratio.kind == "change"
    assert planned.ratio.base[0].value == ["2023-04-01", "2023-10-01"]
    assert planned.ratio.part[0].value == ["2024-04-01", "2024-10-01"]


def test_from_one_year_to_the_next_is_two_periods_in_a_change(orders: DataFrameInfo) -> None:
    planned = plan("2023年度から2024年度で金額は何％伸びた？", orders)
    assert planned.ratio is not None
    assert planned.ratio.base[0].value == ["2023-04-01", "2024-04-01"]
    assert planned.ratio.part[0].value == ["2024-04-01", "2025-04-01"]


def test_the_base_of_a_comparison_is_what_follows_than(bills: DataFrameInfo, orders: DataFrameInfo) -> None:
    english = plan("By what percent is the average tip of non-smokers higher than smokers?", bills, "en")
    assert english.ratio is not None and english.ratio.base[0].value == "Yes" and english.stat == "mean"
    japanese = plan("会員の平均金額は非会員より何％高い？", orders)
    assert japanese.ratio is not None and japanese.ratio.base[0].value == "no"


def test_fiscal_year_windows() -> None:
    found = dates.windows("2024年度", first=date(2023, 1, 1), last=date(2025, 12, 31), language="ja")
    assert (found[0].start, found[0].end) == (date(2024, 4, 1), date(2025, 4, 1))
    lower = dates.windows("2024年度下期", first=date(2023, 1, 1), last=date(2025, 12, 31), language="ja")
    assert (lower[0].start, lower[0].end) == (date(2024, 10, 1), date(2025, 4, 1))
    calendar = dates.windows("2024年上期", first=date(2023, 1, 1), last=date(2025, 12, 31), language="ja")
    assert (calendar[0].start, calendar[0].end) == (date(2024, 1, 1), date(2024, 7, 1))


def test_a_question_that_aggregates_is_answered_not_applied(orders: DataFrameInfo) -> None:
    question = "カテゴリ別に金額を集計して、一番大きいカテゴリを教えて"
    assert not commands.is_command(question)
    planned = plan(question, orders)
    assert planned.group_by == "カテゴリ" and planned.top_n == 1
    assert commands.is_command("カテゴリ別に金額を集計して")
    assert commands.is_command("カテゴリ別に集計した表にして")
    assert commands.is_command("金額が1万円以上のデータを抽出して")


def test_the_category_named_after_an_ordering_word_is_the_grouping(orders: DataFrameInfo) -> None:
    planned = plan("2024年に金額が一番多かったカテゴリは？", orders)
    assert planned.group_by == "カテゴリ" and planned.top_n == 1


def test_n_items_counted_in_japanese_and_english(bills: DataFrameInfo, orders: DataFrameInfo) -> None:
    assert plan("金額の合計が少ないカテゴリを2つ教えて", orders).top_n == 2
    english = plan("List the 2 times with the highest total tip", bills, "en")
    assert english.top_n == 2 and english.group_by == "time"


def test_spearman_is_answered_when_asked(bills: DataFrameInfo) -> None:
    assert plan("Spearman correlation of tip and total_bill?", bills, "en").method.corr == "spearman"
    assert plan("correlation of tip and total_bill", bills, "en").method.corr == "pearson"


def test_a_unit_between_a_number_and_its_comparison(bills: DataFrameInfo) -> None:
    planned = plan("How many bills had a tip of 3 dollars or more?", bills, "en")
    assert planned.task == "count"
    assert [(f.column, f.op, f.value) for f in planned.filters] == [("tip", ">=", 3.0)]


def test_how_one_measure_moves_with_another_is_a_correlation(bills: DataFrameInfo) -> None:
    planned = plan("Does the tip go up or down as the total_bill grows?", bills, "en")
    assert planned.task == "correlation" and {planned.target, planned.second} == {"tip", "total_bill"}

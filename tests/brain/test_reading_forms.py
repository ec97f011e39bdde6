"""The form a question asks for and the conditions it negates, read from general wording.

Tables are made here; each test names a kind of question, not a wording to match.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from bunseki.data.summary import summarize
from tests.brain.planning import asked, plan

RNG = np.random.default_rng(5)
SIZE = 240
JOURNALS = pd.DataFrame(
    {
        "誌名": [f"Journal {i}" for i in range(SIZE)],
        "出版社": RNG.choice(["Elsevier", "Blackwell", "Springer"], SIZE),
        "購読価格(ドル)": RNG.integers(50, 1500, SIZE),
    }
)
RUNS = pd.DataFrame(
    {
        "日付": pd.date_range("2002-01-01", periods=SIZE, freq="7D"),
        "ペース(分/マイル)": RNG.uniform(7, 9, SIZE).round(2),
        "距離(マイル)": RNG.uniform(2, 14, SIZE).round(1),
    }
)
BREACHES = pd.DataFrame(
    {
        "Breach Submission Date": pd.date_range("2010-01-01", periods=SIZE, freq="10D"),
        "Covered Entity Type": RNG.choice(["Healthcare Provider", "Health Plan", "Business Associate"], SIZE),
        "Type of Breach": RNG.choice(["Theft", "Loss", "Hacking"], SIZE),
        "Individuals Affected": RNG.integers(500, 90_000, SIZE),
    }
)
HOUSES = pd.DataFrame(
    {
        "成約日": pd.date_range("2005-01-01", periods=SIZE, freq="9D"),
        "寝室数": RNG.integers(1, 7, SIZE),
        "成約価格(ドル)": RNG.integers(50_000, 400_000, SIZE),
        "当初売出価格(ドル)": RNG.integers(50_000, 400_000, SIZE),
    }
)


def test_how_much_higher_asks_for_the_difference_of_the_two_groups() -> None:
    planned = plan("ElsevierとBlackwellで平均購読価格を比べると、Elsevierのほうがいくら高いですか", summarize(JOURNALS))
    assert planned.form == "difference" and planned.group_by == "出版社"


def test_how_many_minutes_slower_between_two_years_is_their_difference() -> None:
    planned = plan("2005年の平均ペースは2002年より何分遅くなってる？", summarize(RUNS))
    assert planned.form == "difference" and [p.label for p in planned.periods] == ["2002年", "2005年"]


def test_a_negated_condition_the_plan_would_use_as_positive_is_asked_about() -> None:
    question = asked("Business Associate が関わっていない案件は何件？", summarize(BREACHES))
    assert "Business Associate" in question and "否定" in question
    assert plan("Business Associate の案件は何件？", summarize(BREACHES)).filters[0].value == "Business Associate"


def test_a_passive_by_names_no_breakdown() -> None:
    info = summarize(BREACHES)
    read = plan("How many individuals were affected in 2013?", info, "en")
    assert read.target == "Individuals Affected" and read.stat == "sum"  # a count column adds up
    assert "breach" in asked("How many individuals were affected by breaches submitted in 2013?", info, "en")
    assert plan("How many reports are there, broken down by type of breach?", info, "en").group_by == "Type of Breach"


def test_what_year_month_and_day_asks_for_the_day_of_the_extreme_row() -> None:
    planned = plan("距離がいちばん長かった記録は何年何月何日のもの？", summarize(RUNS))
    assert (planned.form, planned.stat, planned.group_by, planned.time_unit) == ("date", "max", "日付", None)


def test_a_column_named_only_as_a_conditions_bound_is_not_the_measure() -> None:
    info = summarize(HOUSES)
    assert "成約価格" in asked("寝室5部屋以上の家で、いちばん安く売れたのはいつ？", info)  # which price?
    assert plan("寝室5部屋以上の家は何軒？", info).task == "count"
    assert plan("寝室5部屋以上の家の平均寝室数は？", info).target == "寝室数"


FOOD = pd.DataFrame(
    {
        "item": [f"Item {i}" for i in range(SIZE)],
        "calories": RNG.integers(50, 1500, SIZE),
        "sodium": RNG.integers(10, 3000, SIZE),
        "protein": RNG.integers(0, 80, SIZE),
    }
)


def test_everyday_words_name_columns_across_languages() -> None:
    info = summarize(FOOD)
    assert plan("ナトリウムの中央値は？", info).target == "sodium"
    assert plan("タンパク質の平均は？", info).target == "protein"
    assert plan("What's the median sodium?", info, "en").target == "sodium"
    assert plan("走行距離の平均は？", summarize(RUNS)).target == "距離(マイル)"


def test_an_english_qualifier_of_the_rows_left_unread_is_asked_about() -> None:
    runs = summarize(RUNS.assign(短距離=RNG.integers(0, 2, SIZE)))
    assert "short" in asked("What's my average pace on the short runs?", runs, "en")
    assert "construction" in asked("What's the average distance for people working in construction?", runs, "en")
    assert plan("Is there anything on the menu under 50 calories?", summarize(FOOD), "en").form == "yesno"


def test_which_thing_is_largest_is_named_by_the_name_column_even_when_names_repeat() -> None:
    storms = pd.DataFrame(
        {
            "名前": RNG.choice(["Alpha", "Bravo", "Charlie", "Delta"], SIZE),  # one storm, many observations
            "日付": pd.date_range("2000-06-01", periods=SIZE, freq="D"),
            "暴風域の直径(海里)": RNG.integers(0, 500, SIZE),
        }
    )
    planned = plan("暴風域の直径が一番大きかった嵐はどれですか", summarize(storms))
    assert (planned.group_by, planned.stat, planned.top_n) == ("名前", "max", 1)


def test_the_noun_a_which_question_asks_for_is_the_rows_its_name_column_names() -> None:
    planned = plan("食物繊維がいちばん多いメニューは？", summarize(FOOD.assign(fiber=RNG.integers(0, 20, SIZE))))
    assert (planned.group_by, planned.target, planned.form) == ("item", "fiber", "name")
    assert "ブランド" in asked(
        "ブランドのメニューでナトリウムの平均は？", summarize(FOOD)
    )  # no which: still a condition


def test_a_number_with_a_unit_goes_to_the_column_whose_header_gives_that_unit() -> None:
    planned = plan("10マイル以上走った日の平均ペースを教えてください", summarize(RUNS))
    assert planned.target == "ペース(分/マイル)"  # a rate per mile is not measured in miles
    assert [(f.column, f.op, f.value) for f in planned.filters] == [("距離(マイル)", ">=", 10.0)]


def test_rows_with_no_figure_recorded_are_the_blank_ones_and_no_children_is_a_value() -> None:
    sales = pd.DataFrame({"city": RNG.choice(["Austin", "Dallas"], SIZE), "sales": RNG.integers(0, 900, SIZE)})
    sales.loc[sales.index[:7], "sales"] = None
    planned = plan("How many rows have no sales figure?", summarize(sales), "en")
    assert [(f.column, f.op) for f in planned.filters] == [("sales", "missing")]


def test_the_widest_is_the_largest() -> None:
    houses = summarize(
        HOUSES.assign(床面積=RNG.integers(500, 4000, SIZE), 所在地=[f"{i} Main St" for i in range(SIZE)])
    )
    planned = plan("床面積がいちばん広い家はどこ？", houses)
    assert (planned.target, planned.stat, planned.group_by) == ("床面積", "max", "所在地")


def test_whether_any_row_falls_in_a_period_is_a_yes_no_count_and_a_window_past_the_data_is_empty() -> None:
    planned = plan("2010年1月以降の記録ってある？", summarize(RUNS))  # RUNS ends in 2006
    assert (planned.task, planned.form) == ("count", "yesno")
    start, end = planned.filters[0].value
    assert start == "2010-01-01" and end >= start


def test_how_long_something_lasted_is_the_span_of_its_rows_not_their_count() -> None:
    storms = pd.DataFrame(
        {
            "名前": RNG.choice(["Andrew", "Katrina"], SIZE),
            "日付": pd.date_range("2005-08-01", periods=SIZE, freq="6h"),  # four observations a day
            "風速": RNG.integers(30, 150, SIZE),
        }
    )
    for question, language in (("How many days did storm Andrew last?", "en"), ("Andrewは何日間続いた？", "ja")):
        planned = plan(question, summarize(storms), language)
        assert (planned.task, planned.form) == ("span", "duration"), question
        assert [(f.column, f.value) for f in planned.filters] == [("名前", "Andrew")]

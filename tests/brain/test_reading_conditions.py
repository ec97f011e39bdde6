"""Conditions people write without the column's exact name, and the questions that must be asked back.

A small household table made here (not the evaluation set's): flags named by two words (妻大卒),
a column left blank for some rows, two ages, a product name, a release date.
"""

from __future__ import annotations

import io
from contextlib import redirect_stdout
from pathlib import Path

import matplotlib.pyplot as plt
import matplotlib_fontja  # noqa: F401  (the sandbox's Japanese font: its charts' labels render)
import numpy as np
import pandas as pd
import pytest
import seaborn as sns

from bunseki.brain.analyst.contract import ExecutionRecord
from bunseki.brain.analyst.offline import answer, codegen
from bunseki.brain.analyst.offline.parse import plan_question
from bunseki.brain.analyst.offline.plan import Clarification, Plan
from bunseki.brain.analyst.offline.text import format_number
from bunseki.data.summary import DataFrameInfo, summarize
from tests.brain.planning import asked, plan

HOUSEHOLDS = pd.DataFrame(
    {
        "就業": [True, False, True, True, False, True],
        "妻大卒": [True, False, False, True, False, True],
        "夫大卒": [False, False, True, True, False, True],
        "妻の年齢": [31, 45, 38, 29, 52, 40],
        "夫の年齢": [33, 47, 41, 30, 55, 44],
        "世帯所得": [520.0, 310.0, 460.0, 700.0, 280.0, 650.0],
        "管理費": [None, 12.0, None, None, 8.5, None],
    }
)
PRODUCTS = pd.DataFrame(
    {
        "メーカー": ["A社", "A社", "B社", "B社", "B社"],
        "製品名": ["Alpha 1", "Alpha 2", "Beta X", "Beta Y", "Beta Z"],
        "コア数": [4, 8, 6, 16, 12],
        "TDP": [65, 95, 65, 125, 105],
        "発売日": pd.to_datetime(["2015-03-01", "2018-06-01", "2016-01-15", "2020-02-01", "2020-09-01"]),
    }
)


@pytest.fixture(scope="module")
def households() -> DataFrameInfo:
    return summarize(HOUSEHOLDS)


@pytest.fixture(scope="module")
def products() -> DataFrameInfo:
    return summarize(PRODUCTS)


@pytest.fixture(autouse=True)
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # the generated code saves its chart here


def concluded(planned: Plan, frame: pd.DataFrame) -> str:
    """The conclusion of the plan's code run on ``frame`` (here, without a sandbox)."""
    code = codegen.generate(planned.model_copy(update={"chart": None}), summarize(frame))
    printed = io.StringIO()
    with redirect_stdout(printed):
        exec(code, {"df": frame.copy(), "pd": pd, "np": np, "plt": plt, "sns": sns})
    plt.close("all")
    record = ExecutionRecord(code=code, success=True, stdout=printed.getvalue())
    result = answer.result_of(record)
    assert result is not None
    return answer.build_report(planned, record, result, summarize(frame)).conclusion


def conditions(planned: Plan) -> list[tuple[str, str, object]]:
    return [(f.column, f.op, f.value) for f in planned.filters]


def test_a_flag_named_with_a_particle_inside_its_name(households: DataFrameInfo) -> None:
    assert conditions(plan("妻が大卒の世帯の平均世帯所得は？", households)) == [("妻大卒", "==", "True")]
    negated = plan("妻が大卒でない人の就業率は？", households)
    assert conditions(negated) == [("妻大卒", "==", "False")]
    assert negated.ratio is not None and [(f.column, f.value) for f in negated.ratio.part] == [("就業", "True")]


def test_a_word_of_a_column_name_the_plan_leaves_out_is_asked_about(households: DataFrameInfo) -> None:
    # 大卒 names both 妻大卒 and 夫大卒: a count of every row would answer another question
    assert "大卒" in asked("大卒の世帯は何件？", households)


@pytest.mark.parametrize(
    ("question", "op"),
    [
        ("管理費が設定されている世帯は何件？", "present"),
        ("管理費が未記録の世帯の平均世帯所得は？", "missing"),
        ("管理費が空欄の世帯は何件？", "missing"),
        ("How many households have no 管理費 recorded?", "missing"),
    ],
)
def test_a_column_filled_in_or_left_blank_is_a_condition(households: DataFrameInfo, question: str, op: str) -> None:
    planned = plan(question, households, "en" if question.startswith("How") else "ja")
    assert conditions(planned) == [("管理費", op, None)]
    blank = HOUSEHOLDS["管理費"].isna()
    rows = HOUSEHOLDS[blank] if op == "missing" else HOUSEHOLDS[~blank]
    expected = format_number(rows["世帯所得"].mean()) if planned.target else str(len(rows))
    assert expected in concluded(planned, HOUSEHOLDS)


def test_an_age_with_two_age_columns_goes_to_the_one_named_or_is_asked(households: DataFrameInfo) -> None:
    named = plan("妻の年齢が35歳以上の世帯の平均世帯所得は？", households)
    assert conditions(named) == [("妻の年齢", ">=", 35)]
    # 35歳 is an age, and there are two: never a condition on 世帯所得, the column named nearest
    assert "35" in asked("35歳以上の世帯の平均世帯所得は？", households)


def test_an_overview_is_not_given_for_a_date_named_only_by_its_event(products: DataFrameInfo) -> None:
    planned = plan_question("最初に発売されたB社の製品は？", products, "ja")
    assert isinstance(planned, Clarification)
    assert plan("発売日について教えて", products).task == "describe"  # named as itself, an overview


def test_the_row_of_an_extreme_is_named_by_the_name_column(products: DataFrameInfo) -> None:
    planned = plan("2020年に発売された製品の中でコア数が最も多いのは？", products)
    assert "Beta Y" in concluded(planned, PRODUCTS)


def test_a_difference_asked_without_a_direction_is_told_as_how_far_the_higher_is_above(
    products: DataFrameInfo,
) -> None:
    planned = plan("A社とB社でTDPの平均の差はいくつ？", products)
    assert planned.form == "difference"
    text = concluded(planned, PRODUCTS)  # A社 80, B社 98.33
    assert "18.33" in text and "-18.33" not in text
    assert text.index("B社") < text.index("A社")  # the higher first


def test_the_period_asked_to_be_named_comes_alone(products: DataFrameInfo) -> None:
    planned = plan("発売が最も多かった年は？", products)
    assert planned.task == "trend" and planned.form in ("date", "name")
    text = concluded(planned, PRODUCTS)
    assert "2020" in text and "2016" not in text and "2015" not in text


def test_a_share_of_a_per_row_measure_is_a_share_of_rows(households: DataFrameInfo) -> None:
    planned = plan("What share of households have 妻の年齢 over 40?", households, "en")
    assert planned.ratio is not None and planned.target is None


def test_an_english_yes_no_question_with_a_plain_subject_compares(products: DataFrameInfo) -> None:
    planned = plan("Do A社 products draw less TDP on average than B社 products?", products, "en")
    assert planned.form == "yesno" and planned.compared == "lower"


def test_a_count_with_a_predicate_it_did_not_read_is_asked_about(households: DataFrameInfo) -> None:
    assert "labour" in asked("How many women are in the labour force?", households, "en")
    assert plan("How many households are listed?", households, "en").task == "count"


RUNNERS = pd.DataFrame(
    {
        "first_name": ["Jeff", "Julie", "Amy", "Tom", "Kay", "Lee"],
        "race": ["5k", "5k", "10k", "10k", "5k", "10k"],
        "sex": ["M", "F", "F", "M", "F", "M"],
        "age": [58.0, 57.0, None, 34.0, 19.0, 66.0],
        "run_time_minutes": [31.5, 35.2, 61.0, 48.9, 29.4, 55.0],
        "Width": [1, 2, 3, 4, 5, 6],
        "Man.trans.avail": ["Yes", "No", "Yes", "No", "Yes", "No"],
    }
)


@pytest.fixture(scope="module")
def runners() -> DataFrameInfo:
    return summarize(RUNNERS)


def test_sex_written_as_one_letter_is_read_from_words(runners: DataFrameInfo) -> None:
    women = plan("How many women ran the 5k?", runners, "en")
    assert sorted(conditions(women)) == [("race", "==", "5k"), ("sex", "==", "F")]
    assert conditions(plan("男性の平均年齢は？", runners)) == [("sex", "==", "M")]


def test_an_age_is_read_from_aged_and_or_older(runners: DataFrameInfo) -> None:
    planned = plan("What is the median run time of runners aged 60 or older?", runners, "en")
    assert planned.target == "run_time_minutes" and conditions(planned) == [("age", ">=", 60)]


def test_a_yes_no_question_with_a_number_is_whether_rows_exist(runners: DataFrameInfo) -> None:
    planned = plan("Is there any runner with a run time above 60?", runners, "en")
    assert planned.form == "yesno" and planned.task == "count" and planned.compared is None


def test_a_with_clause_the_reading_did_not_place_is_asked_about(runners: DataFrameInfo) -> None:
    # "with" is no misspelt Width, and the clause's condition is never silently dropped
    question = asked("What is the average run time of runners with a manual transmission available?", runners, "en")
    assert "manual" in question


def test_the_counted_rows_are_no_condition(runners: DataFrameInfo) -> None:
    planned = plan("年齢が記録されていないランナーは何人？", runners)
    assert planned.task == "count" and conditions(planned) == [("age", "missing", None)]


MONTHLY = pd.DataFrame(
    {
        "年月": pd.date_range("2011-01-01", periods=36, freq="MS"),
        "前月差": [(-1) ** i * (i * 10) for i in range(36)],
        "小売業": [1000 + i * 5 for i in range(36)],
    }
)
DEATHS = pd.DataFrame(
    {
        "death_date": pd.to_datetime(["1992-04-29", "1992-04-30", "1992-04-30", "1992-05-01", "1992-05-03"]),
        "type": ["Homicide", "Death", "Homicide", "Homicide", "Death"],
        "neighborhood": ["Compton", "Watts", "Compton", "Watts", "Compton"],
        "read": [1, 2, 3, 4, 5],
    }
)


def test_a_column_named_by_its_name_holds_no_period_nor_a_form() -> None:
    info = summarize(MONTHLY)
    planned = plan("2012年の前月差の平均は？", info)  # 前月 of 前月差 is no month, 差 no difference
    assert planned.task == "stat" and planned.target == "前月差" and planned.form == "value"
    assert [(f.column, f.value) for f in planned.filters] == [("年月", ["2012-01-01", "2013-01-01"])]


def test_two_periods_compared_without_a_direction_lead_with_how_far_apart() -> None:
    planned = plan("2011年と2013年で小売業の平均はどれだけ違う？", summarize(MONTHLY))
    text = concluded(planned, MONTHLY)
    assert text.startswith("差は 120")  # 1027.5 in 2011, 1147.5 in 2013


def test_the_rows_counted_and_the_event_each_row_dates_are_no_conditions() -> None:
    info = summarize(DEATHS)
    homicides = plan("How many deaths were homicides?", info, "en")
    assert conditions(homicides) == [("type", "==", "Homicide")]
    # every row is a death: "deaths" may be the rows or the value Death, so it is asked, not filtered on
    assert "deaths" in asked("Which neighborhood had the most deaths?", info, "en")


def test_a_verb_column_named_by_its_gerund() -> None:
    assert plan("What is the average reading score?", summarize(DEATHS), "en").target == "read"


def test_a_column_below_or_above_zero_in_words() -> None:
    info = summarize(MONTHLY)
    below = plan("前月差がマイナスだった月は何か月ある？", info)
    assert below.task == "count" and conditions(below) == [("前月差", "<", 0)]
    above = plan("How many months was 前月差 positive?", info, "en")
    assert above.task == "count" and conditions(above) == [("前月差", ">", 0)]
    # which months: the periods named, which a mean does not give
    assert "date" in asked("Which months was 前月差 positive?", info, "en")


def test_younger_and_older_than_are_ages(runners: DataFrameInfo) -> None:
    planned = plan("Were any runners younger than 18?", runners, "en")
    assert planned.form == "yesno" and conditions(planned) == [("age", "<", 18)]


def test_the_extreme_adjective_orders_a_measure_the_question_also_names(runners: DataFrameInfo) -> None:
    assert plan("What was the age of the youngest runner?", runners, "en").stat == "min"


def test_the_period_named_after_an_extreme_of_a_yearly_mean() -> None:
    planned = plan("年平均で小売業が最も少なかった年は？", summarize(MONTHLY))
    assert (planned.task, planned.time_unit, planned.stat, planned.ascending) == ("trend", "Y", "mean", True)

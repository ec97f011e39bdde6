"""Every element of a question is used by the plan, or the analyst asks back naming it.

Small tables made here (not the evaluation set's): a staff roster with a name, dates, a 1/0 flag
and a True/False flag; each test asks what people ask and checks the plan or the question back.
"""

from __future__ import annotations

import pandas as pd
import pytest

from bunseki.brain.analyst.offline import accounting
from bunseki.brain.analyst.offline.parse import plan_question
from bunseki.brain.analyst.offline.plan import Plan
from bunseki.brain.analyst.offline.quantiles import read_quantile
from bunseki.data.summary import DataFrameInfo, summarize
from tests.brain.planning import asked, plan

STAFF = pd.DataFrame(
    {
        "氏名": ["佐藤", "鈴木", "高橋", "田中", "伊藤", "渡辺", "山本", "中村"],
        "部署": ["営業", "営業", "開発", "開発", "開発", "総務", "総務", "営業"],
        "年齢": [25, 41, 33, 52, 29, 47, 38, 31],
        "年収": [420, 780, 610, 950, 530, 700, 640, 480],
        "気筒": [4, 6, 4, 8, 4, 6, 8, 4],
        "在宅勤務": [1, 0, 1, 0, 1, 0, 0, 1],
        "労働組合": [True, False, True, True, False, False, True, False],
        "入社日": pd.to_datetime(
            [
                "2020-04-01",
                "2008-04-01",
                "2015-10-01",
                "1999-04-01",
                "2019-04-01",
                "2005-07-01",
                "2012-04-01",
                "2018-04-01",
            ]
        ),
        "退社日": pd.to_datetime(
            [
                "2023-03-31",
                "2021-03-31",
                "2022-09-30",
                "2020-03-31",
                "2023-03-31",
                "2019-06-30",
                "2022-03-31",
                "2023-03-31",
            ]
        ),
    }
)
PEOPLE = pd.DataFrame(
    {
        "name": ["Ann Lee", "Bob Stone", "Carl Hepworth", "Dana Stone", "Ann Lee"],
        "award": ["Best actor", "Best actress", "Best actor", "Best actress", "Best actress"],
        "age": [34, 61, 28, 45, 39],
    }
)


@pytest.fixture(scope="module")
def staff() -> DataFrameInfo:
    return summarize(STAFF)


@pytest.fixture(scope="module")
def people() -> DataFrameInfo:
    return summarize(PEOPLE)


def test_a_condition_on_one_column_and_a_statistic_of_another(staff: DataFrameInfo) -> None:
    planned = plan("年齢が30歳未満の人の平均年収は？", staff)
    assert planned.target == "年収" and planned.stat == "mean"
    assert [(f.column, f.op, f.value) for f in planned.filters] == [("年齢", "<", 30)]


def test_a_column_the_plan_does_not_read_is_asked_about(staff: DataFrameInfo) -> None:
    planned = plan_question("部署の年収", staff, "ja")
    # a grouping read from 部署 is fine; what must never happen is a plan that drops a named column
    if isinstance(planned, Plan):
        assert "部署" in accounting.plan_columns(planned)


def test_a_name_the_table_does_not_hold_is_asked_about_not_dropped(people: DataFrameInfo) -> None:
    question = asked("What is the mean age of winners born in England?", people, "en")
    assert "England" in question


def test_names_as_the_data_writes_them_in_full_or_by_a_word_only_one_holds(people: DataFrameInfo) -> None:
    planned = plan("What is Carl Hepworth's age?", people, "en")
    assert [(f.column, f.value) for f in planned.filters] == [("name", "Carl Hepworth")]
    by_word = plan("What was Hepworth's age?", people, "en")
    assert [(f.column, f.value) for f in by_word.filters] == [("name", "Carl Hepworth")]
    # "Stone" names two people: no filter is guessed, and the word is asked about
    assert "Stone" in asked("What is Stone's age?", people, "en")


def test_yes_no_written_otherwise_than_the_data(staff: DataFrameInfo) -> None:
    union = plan("組合に加入していない人の平均年収は？", staff)
    assert [(f.column, f.value) for f in union.filters] == [("労働組合", "False")]
    remote = plan("在宅勤務ありの人は何人？", staff)
    assert [(f.column, f.value) for f in remote.filters] == [("在宅勤務", "1")]


def test_a_code_written_before_its_column_is_a_condition(staff: DataFrameInfo) -> None:
    one = plan("8気筒の平均年収は？", staff)
    assert [(f.column, f.op, f.value) for f in one.filters] == [("気筒", "==", 8)]
    two = plan("4気筒と8気筒で平均年収は何万円違う？", staff)
    assert two.task == "group" and two.form == "difference" and two.group_by == "気筒"
    assert [(f.op, f.value) for f in two.filters] == [("in", [4, 8])]


@pytest.mark.parametrize(
    ("question", "q"),
    [
        ("年収の90パーセンタイルは？", 0.9),
        ("年収で上位10%に入る境目はいくら？", 0.9),
        ("年収の下位25%のラインは？", 0.25),
        ("年収の第1四分位数", 0.25),
        ("What is the 75th percentile of 年収?", 0.75),
        ("What's the cutoff for the top 20% of 年収?", 0.8),
    ],
)
def test_quantiles_however_they_are_asked(staff: DataFrameInfo, question: str, q: float) -> None:
    planned = plan(question, staff, "en" if question.isascii() or question.startswith("W") else "ja")
    assert planned.stat == "quantile" and planned.quantile == pytest.approx(q)
    assert planned.task == "stat" and planned.top_n is None  # the boundary, not a top-10 list


def test_an_interquartile_range_is_no_quantile() -> None:
    assert read_quantile("年収の四分位範囲で外れ値を数えて") is None


def test_durations_between_two_dates_and_as_of_a_day(staff: DataFrameInfo) -> None:
    tenure = plan("営業の平均在籍日数は？", staff)
    assert tenure.derived is not None and tenure.derived.expression is not None
    assert "退社日" in tenure.derived.expression and "入社日" in tenure.derived.expression
    as_of = plan("2024年1月1日時点で、入社から平均何年経っている？", staff)
    assert as_of.derived is not None and "2024-01-01" in (as_of.derived.expression or "")
    assert "/ 365.25" in (as_of.derived.expression or "")
    assert not as_of.filters  # the day is where the duration ends, not a one-day window


def test_the_row_where_a_measure_is_extreme_named_by_the_name_column(people: DataFrameInfo) -> None:
    youngest = plan("Who was the youngest Best actor winner?", people, "en")
    assert (youngest.group_by, youngest.stat, youngest.ascending, youngest.top_n) == ("name", "min", True, 1)
    assert [(f.column, f.value) for f in youngest.filters] == [("award", "Best actor")]


def test_the_date_of_the_extreme_row(staff: DataFrameInfo) -> None:
    planned = plan("年収が一番高い人の入社日はいつ？", staff)
    assert planned.form == "date" and planned.group_by == "入社日" and planned.stat == "max"


def test_yes_or_no_is_whether_any_row_meets_the_conditions(staff: DataFrameInfo) -> None:
    planned = plan("開発で年収900万以上の人はいますか？", staff)
    assert planned.task == "count" and planned.form == "yesno"
    assert {f.column for f in planned.filters} == {"部署", "年収"}
    either = accounting.asked_form("is the average going up or down?")
    assert either != "yesno"  # one of two, not yes or no


def test_a_form_the_plan_cannot_give_is_asked_about(staff: DataFrameInfo) -> None:
    question = asked("年収の標準偏差とその差は？", staff)
    assert "差" in question


def test_a_number_the_plan_does_not_use_is_asked_about(people: DataFrameInfo) -> None:
    question = asked("1990年代のageの合計", people)  # no dates here: a decade of what?
    assert "1990" in question


PASSENGERS = pd.DataFrame(
    {
        "氏名": ["A", "B", "C", "D", "E", "F"],
        "年齢": [30, 45, 12, 70, 25, 52],
        "生存": [1, 0, 1, 0, 0, 1],
        "乗船日": pd.to_datetime(["1985-04-10", "1992-04-10", "1988-04-10", "1979-04-10", "1983-04-10", "1995-04-10"]),
    }
)


def test_a_flag_named_by_what_its_side_means() -> None:
    info = summarize(PASSENGERS)
    died = plan("亡くなった乗客の平均年齢は？", info)
    assert [(f.column, f.value) for f in died.filters] == [("生存", "0")]
    alive = plan("How many passengers survived?", info, "en")
    assert [(f.column, f.value) for f in alive.filters] == [("生存", "1")]


def test_a_flags_value_is_compared_as_the_column_holds_it() -> None:
    from bunseki.brain.analyst.offline.filters import condition
    from bunseki.brain.analyst.offline.plan import Filter

    info = summarize(STAFF)
    assert condition(Filter(column="在宅勤務", op="==", value="1"), info) == "(data['在宅勤務'] == 1)"
    assert condition(Filter(column="労働組合", op="==", value="False"), info) == "(data['労働組合'] == False)"


def test_a_decade_is_ten_years() -> None:
    planned = plan("1980年代に乗船した人は何人？", summarize(PASSENGERS))
    window = next(f for f in planned.filters if f.column == "乗船日")
    assert window.value == ["1980-01-01", "1990-01-01"]


def test_rows_counted_in_two_periods_and_compared() -> None:
    planned = plan("1990年代の件数は1980年代の何倍？", summarize(PASSENGERS))
    assert planned.task == "growth" and planned.target is None and planned.form == "times"
    assert [p.label for p in planned.periods] == ["1980年代", "1990年代"]  # the one compared against first


PRICES = pd.DataFrame(
    {
        "銘柄": ["A社"] * 6 + ["B社"] * 6,
        "日付": pd.to_datetime(
            ["2020-01-01", "2020-02-01", "2020-03-01", "2020-04-01", "2020-05-01", "2020-06-01"] * 2
        ),
        "終値": [100, 80, 90, 130, 120, 110, 50, 55, 60, 40, 70, 65],
    }
)


def test_the_time_between_two_moments_of_the_rows() -> None:
    info = summarize(PRICES)
    low_to_high = plan("A社の最安値から最高値まで何か月かかった？", info)
    assert low_to_high.task == "span" and low_to_high.span is not None
    assert (low_to_high.span.start.kind, low_to_high.span.end.kind, low_to_high.span.unit) == ("min", "max", "months")
    assert [(f.column, f.value) for f in low_to_high.filters] == [("銘柄", "A社")]
    first_last = plan("How many days passed between the first and the last row of B社?", info, "en")
    assert first_last.span is not None and (first_last.span.start.kind, first_last.span.end.kind) == ("first", "last")


def test_a_duration_the_plan_cannot_give_is_asked_about(staff: DataFrameInfo) -> None:
    # two date columns, none named, and no two moments: a span of what is not guessed
    assert accounting.asked_form("昇給から退社まで何年かかった？") == "duration"
    question = asked("年収が上がってから何年経った？", staff)
    assert "期間" in question or "年" in question


def test_the_listed_count_is_what_the_plan_lists(staff: DataFrameInfo) -> None:
    planned = plan("年収が高い順に3人挙げてください", staff)
    assert planned.top_n == 3 and planned.group_by == "氏名"
    assert "3" in asked("開発の3人の平均年収は？", staff)  # three of whom: no such list in the plan


def test_two_named_groups_rates_compared(staff: DataFrameInfo) -> None:
    points = plan("営業と開発で在宅勤務率は何ポイント違う？", staff)
    assert points.task == "share" and points.focus == ["営業", "開発"] and points.form == "difference"
    assert [(f.column, f.value) for f in points.within] == [("在宅勤務", "1")]
    higher = plan("開発の在宅勤務率は営業より高いですか？", staff)
    assert higher.form == "yesno" and higher.compared == "higher" and higher.focus == ["開発", "営業"]
    flipped = plan("営業より開発の在宅勤務率は低い？", staff)
    assert flipped.compared == "lower" and flipped.focus == ["開発", "営業"]  # the base is the one before より


def test_an_extreme_or_a_change_the_plan_does_not_compute_is_asked_about(staff: DataFrameInfo) -> None:
    assert "最大" in asked("一番年上の人の名前と年収を教えて", staff)
    assert "増減" in asked("2010年から2020年で年収が最も伸びた部署は？", staff)


def test_words_that_name_two_columns_are_asked_about() -> None:
    info = summarize(pd.DataFrame({"最高気温": [30.1, 28.4, 25.0], "最低気温": [20.2, 18.9, 15.1]}))
    question = asked("気温の平均は？", info)
    assert "最高気温" in question and "最低気温" in question
    told = plan("最高気温の平均は？", info)
    assert told.target == "最高気温"


def test_a_flag_column_named_then_said_present_or_absent() -> None:
    info = summarize(pd.DataFrame({"子供": ["yes", "no", "no", "yes"], "年齢": [30, 41, 25, 38]}))
    absent = plan("子供のいない人の平均年齢は？", info)
    assert [(f.column, f.value) for f in absent.filters] == [("子供", "no")]
    # 有無 is both sides: never a filter on one of them
    both = plan_question("子供の有無別の平均年齢", info, "ja")
    assert not (isinstance(both, Plan) and any(f.column == "子供" for f in both.filters))


def test_a_shares_part_is_the_condition_said_last_and_an_age_is_said_in_years() -> None:
    info = summarize(PASSENGERS)
    english = plan("What percentage of passengers under 40 years old survived?", info, "en")
    assert english.ratio is not None and [(f.column, f.value) for f in english.ratio.part] == [("生存", "1")]
    assert [(f.column, f.op, f.value) for f in english.filters] == [("年齢", "<", 40)]
    assert english.target is None  # a share of rows, not of summed ages
    japanese = plan("生存者のうち40歳未満の人の割合は？", info)
    assert japanese.ratio is not None and [(f.column, f.op) for f in japanese.ratio.part] == [("年齢", "<")]


def test_a_share_whose_part_was_not_read_is_asked_about(staff: DataFrameInfo) -> None:
    assert "副業がある人" in asked("営業のうち副業がある人の割合は？", staff)


def test_who_and_when_inside_a_condition_ask_for_no_name_or_date() -> None:
    assert accounting.asked_form("median salary of people who've served 30 years or more?") == "value"
    assert accounting.asked_form("average uempmed in months when the savings rate was below 5%?") == "value"
    assert accounting.asked_form("who was the oldest winner?") == "name"
    assert accounting.asked_form("when did sales peak?") == "date"


def test_how_many_more_of_one_value_than_another() -> None:
    info = summarize(pd.DataFrame({"種類": ["犬", "猫", "犬", "犬", "猫"], "年齢": [3, 5, 2, 7, 1]}))
    planned = plan("How many more dogs than cats are there?", info, "en")
    assert (planned.task, planned.group_by, planned.form) == ("group", "種類", "difference")
    assert [(f.op, f.value) for f in planned.filters] == [("in", ["犬", "猫"])]


def test_a_flags_rate_with_no_grouping_is_a_share_of_the_rows() -> None:
    planned = plan("50歳以上の人の生存率は？", summarize(PASSENGERS))
    assert planned.task == "ratio" and planned.ratio is not None
    assert [(f.column, f.value) for f in planned.ratio.part] == [("生存", "1")]
    assert [(f.column, f.op, f.value) for f in planned.filters] == [("年齢", ">=", 50)]


def test_both_sides_of_a_flag_compared() -> None:
    info = summarize(PASSENGERS)
    planned = plan("亡くなった人と助かった人の平均年齢の差は？", info)
    assert (planned.task, planned.group_by, planned.form, planned.top_n) == ("group", "生存", "difference", None)
    assert [(f.op, f.value) for f in planned.filters] == [("in", ["0", "1"])]


def test_a_judgement_without_a_direction_is_asked_about(staff: DataFrameInfo) -> None:
    question = asked("年収が一番いい部署は？", staff)
    assert "いい" in question and "年収" in question


def test_a_lower_case_word_like_a_value_is_not_dropped() -> None:
    info = summarize(
        pd.DataFrame(
            {"rank": ["Prof", "AsstProf", "AssocProf", "Prof"], "salary": [1, 2, 3, 4], "years": [5, 9, 2, 30]}
        )
    )
    assert "professors" in asked("What's the average salary of professors?", info, "en")


def test_a_number_counts_the_column_named_right_after_it() -> None:
    info = summarize(pd.DataFrame({"salary": [100, 200, 300], "children": [0, 2, 3]}))
    planned = plan("What is the average salary of people with at least 2 children?", info, "en")
    assert planned.target == "salary"
    assert [(f.column, f.op, f.value) for f in planned.filters] == [("children", ">=", 2)]


MEMBERS = pd.DataFrame(
    {
        "氏名": ["佐藤", "鈴木", "高橋", "田中", "伊藤"],
        "入会日": pd.to_datetime(["2019-05-01", "2020-03-01", "2021-01-10", "2022-07-01", "2018-02-01"]),
        "退会日": pd.to_datetime(["2021-06-30", None, "2022-12-31", None, "2020-01-31"]),
        "ステータス": ["退会", "有効", "退会", "有効", "退会"],
        "プラン": ["A", "B", "A", "B", "A"],
        "年齢": [31, 45, 28, 52, 39],
    }
)


def test_members_current_on_a_day_begun_and_not_ended() -> None:
    from bunseki.brain.analyst.offline.filters import condition

    info = summarize(MEMBERS)
    planned = plan("2021年12月31日時点の有効会員数は？", info)
    assert planned.task == "count"
    [current] = planned.filters  # 有効 (today's status) gives way to the day's
    assert (current.op, current.column, current.other, current.value) == ("active_on", "入会日", "退会日", "2021-12-31")
    rows = eval(condition(current, info), {"pd": pd, "data": MEMBERS})
    assert list(MEMBERS.loc[rows, "氏名"]) == ["鈴木", "高橋"]


def test_a_value_named_as_a_rate_and_an_event_dates_its_rows() -> None:
    info = summarize(MEMBERS)
    churn = plan("プランごとの退会率", info)
    assert churn.task == "share" and churn.group_by == "プラン"
    assert [(f.column, f.value) for f in churn.within] == [("ステータス", "退会")]
    left = plan("退会した会員の平均年齢は？", info)
    assert [(f.column, f.value) for f in left.filters] == [("ステータス", "退会")]
    by_year = plan("年別の退会者数", info)
    assert (by_year.task, by_year.date_column, by_year.time_unit) == ("trend", "退会日", "Y")


def test_the_period_with_the_most_rows_and_a_date_column_read_only_when_used() -> None:
    info = summarize(MEMBERS)
    busiest = plan("入会者が一番多かった年は？", info)
    assert (busiest.task, busiest.time_unit, busiest.date_column, busiest.form) == ("trend", "Y", "入会日", "date")
    assert asked("入会日が一番早い会員の年齢の合計は？", info)  # 入会日 orders nothing the plan reads: asked
    which = plan(
        "プランAとプランBではどちらが平均年齢が高い？",
        summarize(MEMBERS.assign(プラン=["プランA", "プランB"] * 2 + ["プランA"])),
    )
    assert which.task == "group" and which.group_by == "プラン"


@pytest.mark.parametrize(
    ("question", "window"),
    [
        ("How many members joined before 2020?", ["2018-02-01", "2020-01-01"]),
        ("How many members joined after 2020?", ["2021-01-01", "2022-07-02"]),
        ("How many members joined since 2020?", ["2020-01-01", "2022-07-02"]),
        ("2020年より前に入会した会員は何人？", ["2018-02-01", "2020-01-01"]),
        ("2020年までに入会した会員は何人？", ["2018-02-01", "2021-01-01"]),
    ],
)
def test_before_after_and_since_a_year(question: str, window: list[str]) -> None:
    planned = plan(question, summarize(MEMBERS), "en" if question.isascii() else "ja")
    assert [f.value for f in planned.filters if f.column == "入会日"] == [window]


def test_a_bound_no_value_of_the_nearest_column_could_meet_goes_to_the_one_it_fits() -> None:
    info = summarize(pd.DataFrame({"salary": [35000, 90000, 160000, 52000], "age": [23, 41, 64, 35]}))
    planned = plan("What is the average salary of employees under 30?", info, "en")
    assert planned.target == "salary"
    assert [(f.column, f.op, f.value) for f in planned.filters] == [("age", "<", 30)]


def test_who_inside_a_condition_and_a_negated_verb() -> None:
    info = summarize(pd.DataFrame({"salary": [1, 2, 3, 4], "remote": [True, False, True, False]}))
    planned = plan("What is the average salary of employees who do not work remotely?", info, "en")
    assert (planned.task, planned.group_by) == ("stat", None)
    assert [(f.column, f.value) for f in planned.filters] == [("remote", "False")]

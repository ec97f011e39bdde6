"""Everyday questions the offline analyst reads into its typed intent: the slots it fills
against a table it was not written for, and answers computed end to end on small frames."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from bunseki.brain.analyst.offline import codegen, dates
from bunseki.brain.analyst.offline.columns import ColumnMatcher
from bunseki.brain.analyst.offline.parse import plan_question
from bunseki.brain.analyst.offline.plan import Clarification
from bunseki.brain.text import normalize
from bunseki.data.summary import summarize
from bunseki.service.analysis import AnalysisSession
from bunseki.settings import Settings
from tests.brain.planning import plan


@pytest.fixture(scope="module")
def shop() -> pd.DataFrame:
    """Japanese headers, questions in English: the bilingual vocabulary has to bridge them."""
    return pd.DataFrame(
        {
            "注文日": pd.date_range("2024-01-01", periods=12, freq="MS"),
            "部署": ["営業", "開発", "営業", "総務"] * 3,
            "支払方法": ["カード", "現金", "カード", "PayPay"] * 3,
            "会員": ["yes", "no", "no"] * 4,
            "在庫数": [5, 50, 8, 40, 3, 60, 9, 70, 2, 80, 1, 90],
            "発注点": [10] * 12,
            "売上金額": [100, 200, 300, 400, 500, 600, 700, 800, 900, 1000, 1100, 1200],
        }
    )


@pytest.fixture(scope="module")
def countries() -> pd.DataFrame:
    """An integer year column and no date: the years are the time axis."""
    rows = [
        (c, y, p)
        for c, base in (("A", 100), ("B", 300))
        for y, p in zip(range(2010, 2015), range(base, base + 50, 10), strict=True)
    ]
    return pd.DataFrame(rows, columns=["country", "year", "population"])


# --- slots -------------------------------------------------------------------------------------


def test_english_words_find_japanese_columns_and_back(shop: pd.DataFrame) -> None:
    matcher = ColumnMatcher(summarize(shop))
    found = {m.column for m in matcher.columns("payment methods, departments, members and revenue")}
    assert found == {"支払方法", "部署", "会員", "売上金額"}
    english = ColumnMatcher(summarize(pd.DataFrame({"population": [1, 2], "total_bill": [3.0, 4.0]})))
    assert [m.column for m in english.columns("人口と会計")] == ["population", "total_bill"]
    assert [m.column for m in english.columns("the biggest bill")] == ["total_bill"]  # a header's head noun


def test_members_named_by_a_word_become_the_yes_condition(shop: pd.DataFrame) -> None:
    planned = plan("How many orders were placed by members?", summarize(shop), "en")
    assert planned.task == "count"
    assert [(f.column, f.value) for f in planned.filters] == [("会員", "yes")]


def test_a_column_compared_with_another_column(shop: pd.DataFrame) -> None:
    info = summarize(shop)
    planned = plan("在庫数が発注点を下回っている品目は何件？", info)
    assert planned.task == "count"
    assert [(f.column, f.op, f.other) for f in planned.filters] == [("在庫数", "<", "発注点")]
    english = plan("What percent of rows have 在庫数 above 発注点?", info, "en")
    assert english.ratio is not None and english.ratio.kind == "share" and english.target is None
    assert [(f.column, f.op, f.other) for f in english.ratio.part] == [("在庫数", ">", "発注点")]


def test_a_column_equal_to_a_number(shop: pd.DataFrame) -> None:
    planned = plan("在庫数が0の行はいくつありますか", summarize(shop))
    assert [(f.column, f.op, f.value) for f in planned.filters] == [("在庫数", "==", 0)]


def test_a_year_column_is_the_time_axis(countries: pd.DataFrame) -> None:
    info = summarize(countries)
    growth = plan("By what percent did total population grow from 2010 to 2014?", info, "en")
    assert growth.task == "ratio" and growth.ratio is not None and growth.ratio.kind == "change"
    assert [f.value for f in growth.ratio.base] == [["2010-01-01", "2011-01-01"]]
    assert growth.year_column == "year"
    trend = plan("年ごとの人口の推移は？", info)
    assert trend.task == "trend" and trend.time_unit == "Y" and trend.date_column == "year"


def test_halves_with_their_months_fiscal_quarters_and_english_halves() -> None:
    first, last = date(2023, 4, 1), date(2025, 3, 31)

    def windows(text: str) -> list[tuple[str, str]]:
        found = dates.windows(normalize(text), first=first, last=last, language="ja")
        return [(w.start.isoformat(), w.end.isoformat()) for w in found]

    assert windows("2024年上期（1〜6月）と下期（7〜12月）") == [
        ("2024-01-01", "2024-07-01"),
        ("2024-07-01", "2025-01-01"),
    ]
    # 年度 once in the question makes both halves fiscal: April–September and October–March
    assert windows("2024年度の上期と下期") == [("2024-04-01", "2024-10-01"), ("2024-10-01", "2025-04-01")]
    assert windows("2024年度第1四半期") == [("2024-04-01", "2024-07-01")]
    assert windows("H2 2024") == [("2024-07-01", "2025-01-01")]
    assert windows("Mar 1-7, 2024") == [("2024-03-01", "2024-03-08")]


def test_year_over_year_is_against_the_year_before_the_named_one(shop: pd.DataFrame) -> None:
    info = summarize(shop.assign(注文日=pd.date_range("2023-01-01", periods=12, freq="2MS")))
    planned = plan("2024年の売上金額の前年比は？", info)
    assert planned.ratio is not None and planned.ratio.kind == "change"
    assert [f.value for f in planned.ratio.base] == [["2023-01-01", "2024-01-01"]]
    rate = plan("2023年から2024年の売上金額の伸び率は？", info)
    assert rate.ratio is not None and [f.text for f in rate.ratio.part] == ["2024年"]


def test_two_values_that_are_also_a_prefix_of_their_column_are_compared() -> None:
    info = summarize(pd.DataFrame({"初診再診": ["初診", "再診"] * 3, "待ち時間": [30.0, 20.0, 32.0, 22.0, 28.0, 18.0]}))
    planned = plan("初診と再診で平均待ち時間は何％違いますか", info)
    assert planned.ratio is not None and planned.ratio.kind == "change"
    assert [f.value for f in planned.ratio.base + planned.ratio.part] == ["初診", "再診"]


def test_fiscal_year_over_year_and_is_it_increasing(shop: pd.DataFrame) -> None:
    info = summarize(shop.assign(注文日=pd.date_range("2023-04-01", periods=12, freq="2MS")))
    fiscal = plan("売上金額の前年度比は？", info)
    assert fiscal.task == "growth" and [p.label for p in fiscal.periods] == ["2023年度", "2024年度"]
    assert any("4月" in text for text in fiscal.assumptions)
    assert plan("営業の注文件数は増えていますか", info).task == "trend"


def test_a_fiscal_year_is_stated_as_an_assumption(shop: pd.DataFrame) -> None:
    planned = plan("2024年度の売上金額の合計は？", summarize(shop))
    assert any("4月" in text for text in planned.assumptions)


def test_the_other_side_of_a_yes_no_comparison_named_alone() -> None:
    info = summarize(pd.DataFrame({"在宅勤務": ["有", "無"] * 4, "残業時間": [10.0, 20.0, 12.0, 22.0] * 2}))
    planned = plan("在宅勤務ありの平均残業時間は、なしと比べて何%違いますか", info)
    assert planned.ratio is not None and planned.ratio.kind == "change"
    assert [f.value for f in planned.ratio.base] == ["無"] and [f.value for f in planned.ratio.part] == ["有"]


def test_a_change_between_two_measures_and_a_mean_across_columns() -> None:
    info = summarize(pd.DataFrame({"国語": [60, 70, 80], "数学": [50, 60, 70], "英語": [40, 90, 60]}))
    change = plan("国語の平均点に比べて数学の平均点は何％低い？", info)
    assert change.ratio is not None and (change.ratio.base_column, change.ratio.part_column) == ("国語", "数学")
    averaged = plan("Compute the average of 国語, 数学 and 英語 per student; what is the highest?", info, "en")
    assert averaged.derived is not None and averaged.stat == "max"
    assert averaged.derived.expression == "(data['国語'] + data['数学'] + data['英語']) / 3"


def test_the_code_for_a_change_between_two_measures_computes_it() -> None:
    frame = pd.DataFrame({"国語": [60, 70, 80], "数学": [50, 60, 70]})
    planned = plan("国語の平均点に比べて数学の平均点は何％低い？", summarize(frame))
    scope: dict[str, object] = {"df": frame, "pd": pd, "np": np}
    exec(codegen.generate(planned, summarize(frame)), scope)  # the generated analysis, on a tiny frame
    result = scope["result"]
    assert isinstance(result, dict) and round(result["value"], 2) == round(100 * (60 - 70) / 70, 2)


def test_with_no_measure_named_the_most_means_the_most_rows(shop: pd.DataFrame) -> None:
    planned = plan("Which payment method was used most often?", summarize(shop), "en")
    assert planned.group_by == "支払方法" and planned.target is None and planned.stat == "count"
    busiest = plan("一番注文が多かった部署は？", summarize(shop))
    assert busiest.group_by == "部署" and busiest.target is None


def test_more_items_asked_than_there_are_groups_is_said(shop: pd.DataFrame) -> None:
    planned = plan("売上金額の合計が多い部署トップ5", summarize(shop))
    assert planned.top_n == 5 and any("3" in text for text in planned.assumptions)


def test_a_column_named_with_per_is_not_a_ratio() -> None:
    info = summarize(pd.DataFrame({"gdp_usd": [1.0, 2.0, 4.0], "gdp_per_capita": [1.0, 3.0, 2.0], "life": [1, 2, 3]}))
    planned = plan("What is the correlation between GDP per capita and life?", info, "en")
    assert planned.derived is None and {planned.target, planned.second} == {"gdp_per_capita", "life"}


def test_a_defined_name_does_not_set_the_time_grain() -> None:
    frame = pd.DataFrame(
        {"日付": pd.date_range("2024-01-01", periods=4), "最高気温": [10.0, 12, 9, 15], "最低気温": [1.0, 2, 3, 4]}
    )
    planned = plan("Daily range = 最高気温 - 最低気温: what's the max?", summarize(frame), "en")
    assert planned.task == "stat" and planned.stat == "max" and planned.time_unit is None


# --- answers, end to end ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def root() -> Iterator[Path]:
    import shutil
    import tempfile

    made = Path(tempfile.mkdtemp(prefix="bunseki-everyday-"))
    made.chmod(0o711)
    yield made
    shutil.rmtree(made, ignore_errors=True)


def answer(frame: pd.DataFrame, name: str, question: str, root: Path) -> str:
    path = root / name
    frame.to_csv(path, index=False)
    with AnalysisSession(path, settings=Settings(workspace_root=root, model="offline")) as session:
        result = session.ask(question)
    assert result.status == "finalized", result.question or result.error
    return result.answer or ""


def test_growth_between_two_years_of_a_year_column(countries: pd.DataFrame, root: Path) -> None:
    text = answer(countries, "countries.csv", "By what percent did total population grow from 2010 to 2014?", root)
    before = countries.loc[countries["year"] == 2010, "population"].sum()
    after = countries.loc[countries["year"] == 2014, "population"].sum()
    assert f"{100 * (after - before) / before:+.1f}%" in text


def test_rows_below_their_reorder_point_are_counted(shop: pd.DataFrame, root: Path) -> None:
    text = answer(shop, "shop.csv", "在庫数が発注点を下回っている行は何件？", root)
    assert f" {int((shop['在庫数'] < shop['発注点']).sum())} 件" in text


def test_a_trend_states_its_direction_slope_and_grain(shop: pd.DataFrame, root: Path) -> None:
    text = answer(shop, "shop_trend.csv", "月別の売上金額の推移は増えていますか？", root)
    assert "増加傾向" in text and "傾き 100" in text and "/月" in text
    flat = shop.assign(売上金額=[500, 501] * 6)
    assert "横ばい" in answer(flat, "shop_flat.csv", "月別の売上金額の推移は？", root)


def test_top_n_names_the_groups_tied_with_the_last_one(root: Path) -> None:
    frame = pd.DataFrame({"store": ["a", "b", "c", "d"], "sales": [30, 20, 20, 10]})
    text = answer(frame, "stores.csv", "top 2 stores by sales", root)
    assert "a" in text and "tie" in text and "c" in text


# --- days of the week and quarters --------------------------------------------------------------


@pytest.fixture(scope="module")
def daily() -> pd.DataFrame:
    """Two weeks of daily sales, higher at the weekend; a day-type column written by hand in one copy."""
    days = pd.date_range("2024-01-01", periods=56, freq="D")  # a Monday, eight whole weeks
    sales = [100 + 10 * day.day_of_week + (50 if day.day_of_week >= 5 else 0) for day in days]
    return pd.DataFrame({"日付": days, "売上": sales})


@pytest.mark.parametrize(
    ("question", "unit"),
    [
        ("曜日別の平均売上は？", "weekday"),  # 曜日別 holds the daily unit's 日別
        ("曜日ごとの件数は？", "weekday"),
        ("What is the average 売上 by day of week?", "weekday"),  # holds "by day"
        ("平日と週末で平均売上を比べて", "daytype"),
        ("Compare the mean 売上 on weekends and weekdays", "daytype"),
        ("日別の売上の推移", "D"),
    ],
)
def test_days_of_the_week_are_read_before_days(daily: pd.DataFrame, question: str, unit: str) -> None:
    planned = plan(question, summarize(daily), "en" if question.isascii() else "ja")
    assert planned.task == "trend" and planned.time_unit == unit


def test_weekday_named_as_a_value_of_a_column_is_a_condition_not_a_day_type(daily: pd.DataFrame) -> None:
    typed = daily.assign(区分=["平日"] * 5 * 8 + ["休日"] * 16)
    assert plan("平日の売上合計は？", summarize(typed)).time_unit is None


def test_weekdays_against_the_weekend_and_each_day_of_the_week(daily: pd.DataFrame, root: Path) -> None:
    weekend = daily["日付"].dt.day_of_week >= 5
    text = answer(daily, "daily.csv", "平日と週末で平均売上を比べて", root)
    assert f"週末 に最大（{daily['売上'][weekend].mean():g}）" in text
    assert f"平日 に最小（{daily['売上'][~weekend].mean():g}）" in text
    text = answer(daily, "daily_days.csv", "曜日別の平均売上は？", root)
    assert "日曜日 に最大（210）" in text and "月曜日 に最小（100）" in text
    assert "変化しました" not in text and "傾き" not in text  # Monday to Sunday is not a change over time


def test_quarters_are_named_as_quarters(daily: pd.DataFrame, root: Path) -> None:
    year = pd.DataFrame({"日付": pd.date_range("2024-01-01", periods=12, freq="MS"), "売上": range(1, 13)})
    text = answer(year, "quarters.csv", "四半期ごとの売上合計", root)
    assert "2024年第4四半期 に最大（33）" in text and "2024年第1四半期 に最小（6）" in text
    english = answer(year.set_axis(["date", "sales"], axis=1), "quarters_en.csv", "total sales by quarter", root)
    assert "2024-Q4 (33)" in english


# --- cross tables: two columns the rows are broken down by ------------------------------------------


@pytest.fixture(scope="module")
def orders() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "店舗": ["新宿", "新宿", "渋谷", "渋谷", "池袋", "池袋"] * 2,
            "カテゴリ": ["食品", "飲料"] * 6,
            "売上": [50, 10, 20, 30, 5, 15, 50, 10, 20, 30, 5, 15],
        }
    )


@pytest.mark.parametrize(
    "question",
    [
        "店舗別・カテゴリ別の売上合計",
        "店舗×カテゴリの売上",
        "店舗とカテゴリ別の売上合計",
        "店舗とカテゴリの組み合わせで一番売上が多いのは？",
    ],
)
def test_two_columns_named_for_a_breakdown_make_a_cross_table(orders: pd.DataFrame, question: str) -> None:
    planned = plan(question, summarize(orders))
    assert (planned.group_by, planned.cross) == ("店舗", "カテゴリ")


def test_a_value_of_one_column_and_a_breakdown_by_another_is_no_cross_table(orders: pd.DataFrame) -> None:
    planned = plan("新宿のカテゴリ別の売上合計", summarize(orders))
    assert (planned.group_by, planned.cross) == ("カテゴリ", None)


def test_a_cross_table_ranks_its_cells(orders: pd.DataFrame, root: Path) -> None:
    text = answer(orders, "orders.csv", "店舗とカテゴリの組み合わせで一番売上が多いのは？", root)
    assert "新宿・食品（100）" in text
    english_orders = orders.set_axis(["store", "category", "sales"], axis=1)
    english = answer(english_orders, "orders_en.csv", "total sales by store and category", root)
    assert "largest for 新宿 / 食品 (100)" in english and "smallest for 池袋 / 食品 (10)" in english


def test_the_weekend_told_by_a_column_of_day_names(root: Path) -> None:
    tips = pd.DataFrame({"day": ["Thur", "Fri", "Sat", "Sun"] * 3, "tip": [1, 2, 5, 7] * 3})
    planned = plan("Compare the average tip on weekends and weekdays", summarize(tips), "en")
    assert (planned.task, planned.time_unit, planned.date_column) == ("trend", "daytype", "day")
    text = answer(tips, "tips.csv", "Compare the average tip on weekends and weekdays", root)
    assert "highest on weekend (6)" in text and "lowest on weekdays (1.5)" in text


def test_duplicate_rows_in_every_column_or_in_the_columns_named(root: Path) -> None:
    frame = pd.DataFrame({"顧客ID": [1, 2, 2, 3, 3, 3], "金額": [10, 20, 20, 30, 31, 30]})
    text = answer(frame, "dups.csv", "重複している行はある？", root)
    assert "重複している行は 2 行です（6 行中" in text and "4 行）" in text
    text = answer(frame, "dups_id.csv", "顧客IDの重複は？", root)
    assert "顧客ID が同じ行として見ると、重複している行は 3 行です" in text
    english = answer(frame.drop_duplicates(), "unique.csv", "Are there any duplicate rows?", root)
    assert "No row repeats another (4 rows)" in english


def test_counted_rows_are_named_once_as_the_measure(orders: pd.DataFrame, root: Path) -> None:
    text = answer(orders, "orders_count.csv", "店舗別の件数", root)
    assert text.startswith("店舗別の件数は ") and "件数の件数" not in text
    english = answer(
        orders.set_axis(["store", "category", "sales"], axis=1), "count_en.csv", "How many rows per store?", root
    )
    assert "the number of rows is largest" in english


# --- running totals, moving averages, long daily trends ---------------------------------------------


def test_a_running_total_and_a_moving_average_over_the_periods(root: Path) -> None:
    months = pd.DataFrame({"日付": pd.date_range("2024-01-01", periods=6, freq="MS"), "売上": [10, 20, 30, 40, 50, 60]})
    text = answer(months, "running.csv", "売上の累計推移を見せて", root)
    assert text.startswith("売上の合計の累計は 2024年6月 に最大（210）、2024年1月 に最小（10）")
    english = answer(months.set_axis(["date", "sales"], axis=1), "moving.csv", "3-month moving average of sales", root)
    assert "The 3-month moving average of the total of sales peaks in 2024-06 (50)" in english
    assert "lowest in 2024-03 (20)" in english  # the first full window


def test_a_daily_trend_over_years_fits_in_the_cells_output(root: Path) -> None:
    days = pd.date_range("2021-01-01", "2024-12-31", freq="D")
    rng = np.random.default_rng(0)
    frame = pd.DataFrame({"date": days, "sales": rng.uniform(1000, 2000, len(days)).round(3)})
    frame.loc[500, "sales"] = 9999.5
    text = answer(frame, "daily_years.csv", "7-day moving average of daily sales", root)
    smoothed = frame.set_index("date")["sales"].rolling(7).mean()
    assert f"peaks in {smoothed.idxmax():%Y-%m-%d}" in text


# --- shares across a column, within a condition --------------------------------------------------


@pytest.fixture(scope="module")
def staff() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "department": ["Eng", "Eng", "Eng", "Sales", "Sales", "HR"] * 2,
            "gender": ["M", "M", "F", "F", "M", "F"] * 2,
            "salary": [5, 6, 7, 4, 5, 3] * 2,
        }
    )


@pytest.mark.parametrize("question", ["What is the gender ratio in Eng?", "Engの男女比は？"])
def test_a_ratio_of_a_column_within_a_condition_is_a_share_across_that_column(
    staff: pd.DataFrame, question: str
) -> None:
    planned = plan(question, summarize(staff), "en" if question.isascii() else "ja")
    assert (planned.task, planned.group_by, planned.target) == ("share", "gender", None)
    assert [(f.column, f.value) for f in planned.filters] == [("department", "Eng")]


def test_a_share_of_a_value_is_still_its_share_of_all_rows(staff: pd.DataFrame) -> None:
    planned = plan("What share of employees are in Sales?", summarize(staff), "en")
    assert planned.task == "ratio"


@pytest.fixture(scope="module")
def payments() -> pd.DataFrame:
    """The store with the most card payments (北) is not the one where they are the largest share (南)."""
    return pd.DataFrame(
        {
            "店舗": ["北"] * 10 + ["南"] * 4 + ["東"] * 5,
            "支払方法": ["カード"] * 5 + ["現金"] * 5 + ["カード"] * 3 + ["現金"] + ["カード"] + ["現金"] * 4,
            "金額": [100] * 19,
        }
    )


@pytest.mark.parametrize(
    ("question", "lowest"),
    [("カード払いの割合が一番高い店舗は？", False), ("カードの比率が最も低い店舗はどこ", True)],
)
def test_the_group_where_a_value_is_the_largest_share_is_ranked_by_its_share_within_each_group(
    payments: pd.DataFrame, question: str, lowest: bool
) -> None:
    planned = plan(question, summarize(payments))
    assert (planned.task, planned.group_by, planned.target, planned.ascending) == ("share", "店舗", None, lowest)
    assert [(f.column, f.value) for f in planned.within] == [("支払方法", "カード")]
    assert planned.filters == []  # every payment of each store stays: the share is among them


def test_a_share_within_each_group_is_answered_with_its_parts(payments: pd.DataFrame, root: Path) -> None:
    text = answer(payments, "payments.csv", "カード払いの割合が一番高い店舗は？", root)
    assert "最も高いのは 南" in text
    assert "南 75.0%（3/4）、北 50.0%（5/10）、東 20.0%（1/5）" in text


def test_a_stores_share_of_all_rows_of_a_value_is_kept_without_a_ranking(payments: pd.DataFrame) -> None:
    planned = plan("カード払いの店舗別の割合", summarize(payments))  # how card payments split over the stores
    assert (planned.task, planned.group_by, planned.within) == ("share", "店舗", [])
    assert [(f.column, f.value) for f in planned.filters] == [("支払方法", "カード")]


@pytest.mark.parametrize("question", ["店舗別の支払方法の割合", "店舗ごとの支払方法の構成比を教えて"])
def test_a_share_by_one_column_of_another_is_each_groups_own_mix(payments: pd.DataFrame, question: str) -> None:
    planned = plan(question, summarize(payments))
    assert (planned.task, planned.group_by, planned.cross, planned.within) == ("share", "店舗", "支払方法", [])


def test_each_groups_mix_is_answered_in_percent_of_that_group(payments: pd.DataFrame, root: Path) -> None:
    text = answer(payments, "mix.csv", "店舗別の支払方法の割合", root)
    assert "北（カード 50.0%、現金 50.0%）" in text
    assert "南（カード 75.0%、現金 25.0%）" in text
    assert "東（現金 80.0%、カード 20.0%）" in text


@pytest.fixture(scope="module")
def lines() -> pd.DataFrame:
    """A ledger of order lines: unit price and quantity, no sales column."""
    return pd.DataFrame(
        {
            "店舗": ["A", "A", "B", "B"],
            "単価": [100, 200, 300, 50],
            "数量": [3, 1, 1, 10],
        }
    )


@pytest.mark.parametrize(("question", "language"), [("店舗別の売上は？", "ja"), ("Total revenue by store", "en")])
def test_sales_of_a_ledger_without_a_sales_column_are_unit_price_times_quantity(
    lines: pd.DataFrame, question: str, language: str
) -> None:
    planned = plan(question, summarize(lines), language)
    assert planned.derived is not None
    assert (planned.derived.left, planned.derived.op, planned.derived.right) == ("単価", "*", "数量")
    assert (planned.target, planned.stat) == (planned.derived.name, "sum")
    assert any("単価 × 数量" in note for note in planned.assumptions)


@pytest.mark.parametrize("question", ["平均単価が一番高い店舗は？", "店舗ごとの単価の平均"])
def test_the_unit_price_column_itself_is_averaged_when_the_table_has_one(lines: pd.DataFrame, question: str) -> None:
    planned = plan(question, summarize(lines))
    assert (planned.derived, planned.target, planned.stat) == (None, "単価", "mean")


def test_a_sales_column_or_a_count_of_sales_is_never_replaced_by_a_product(lines: pd.DataFrame) -> None:
    with_sales = lines.assign(売上金額=[1, 2, 3, 4])
    assert plan("店舗別の売上は？", summarize(with_sales)).target == "売上金額"
    assert plan("売上件数は？", summarize(lines)).derived is None
    assert plan("How many sales were there?", summarize(lines), "en").derived is None


def test_sales_by_store_are_answered_from_price_times_quantity(lines: pd.DataFrame, root: Path) -> None:
    text = answer(lines, "lines.csv", "店舗別の売上は？", root)
    assert "B が最大（800）" in text and "A が最小（500）" in text


@pytest.fixture(scope="module")
def customers() -> pd.DataFrame:
    return pd.DataFrame({"年齢": [19, 24, 28, 35, 38, 41, 67], "数量": [1, 2, 4, 5, 7, 9, 11]})


@pytest.mark.parametrize(
    ("question", "language", "band"),
    [
        ("年代別の平均数量は？", "ja", "年代"),
        ("年齢層ごとの数量の平均", "ja", "年齢層"),
        ("Average quantity by age group", "en", "age group"),
    ],
)
def test_age_bands_group_by_the_decades_of_the_age_column(
    customers: pd.DataFrame, question: str, language: str, band: str
) -> None:
    planned = plan(question, summarize(customers), language)
    assert (planned.task, planned.group_by, planned.target, planned.stat) == ("group", band, "数量", "mean")
    assert planned.age_bands is not None
    assert (planned.age_bands.column, planned.age_bands.age) == (band, "年齢")


def test_one_age_band_is_a_condition_and_the_years_of_a_decade_are_not_ages(customers: pd.DataFrame) -> None:
    thirties = plan("30代の平均数量は？", summarize(customers))
    assert [(f.column, f.value) for f in thirties.filters] == [("年代", "30代")]
    decade = plan_question("1990年代の数量の合計", summarize(customers), "ja")  # a decade of years, no dates here
    assert isinstance(decade, Clarification) and "1990" in decade.question  # asked, never read as ages


def test_age_bands_are_answered_from_the_decades(customers: pd.DataFrame, root: Path) -> None:
    text = answer(customers, "customers.csv", "年代別の平均数量は？", root)
    assert "60代 が最大（11）" in text and "10代 が最小（1）" in text
    assert "数量 の平均は 6 です（年代 が 30代）" in answer(customers, "customers.csv", "30代の平均数量は？", root)


@pytest.fixture(scope="module")
def leavers() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "部署": ["営業"] * 4 + ["開発"] * 5,
            "離職": ["yes", "no", "no", "no", "yes", "yes", "yes", "no", "no"],
            "給与": [3, 4, 5, 6, 7, 8, 9, 10, 11],
        }
    )


@pytest.mark.parametrize(
    ("question", "language"),
    [("部署ごとの離職率は？", "ja"), ("離職率が一番高い部署はどこ", "ja"), ("What is the rate of 離職 by 部署?", "en")],
)
def test_a_yes_no_columns_rate_is_taken_within_each_group(leavers: pd.DataFrame, question: str, language: str) -> None:
    planned = plan(question, summarize(leavers), language)
    assert (planned.task, planned.group_by, planned.filters) == ("share", "部署", [])
    assert [(f.column, f.value) for f in planned.within] == [("離職", "yes")]


def test_a_yes_no_columns_rate_by_group_is_answered(leavers: pd.DataFrame, root: Path) -> None:
    text = answer(leavers, "leavers.csv", "部署ごとの離職率は？", root)
    assert "開発 60.0%（3/5）、営業 25.0%（1/4）" in text


def test_what_is_a_statistic_by_a_column_lists_every_group(staff: pd.DataFrame) -> None:
    planned = plan("What is the median salary by department?", summarize(staff), "en")
    assert (planned.task, planned.group_by, planned.top_n) == ("group", "department", None)


def test_top_n_rows_are_listed_by_the_column_naming_each_row(root: Path) -> None:
    salaries = [300, 500, 400, 100, *range(10, 46)]  # more values than a breakdown would have
    people = pd.DataFrame(
        {
            "name": ["ann", "bob", "cy", "dee"] + [f"p{i}" for i in range(36)],
            "team": ["a", "b"] * 20,
            "salary": salaries,
        }
    )
    planned = plan("Top 2 employees by salary", summarize(people), "en")
    assert (planned.task, planned.group_by, planned.rows) == ("top", "name", True)
    text = answer(people, "people.csv", "給与（salary）が高い上位2人", root)
    assert text.startswith("salaryが大きい順の上位2件: bob（500）、cy（400）")

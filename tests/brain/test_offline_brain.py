"""The offline brain as an analyst: real questions, real sandbox, answers checked against pandas.

Every expected number is computed here with pandas, independently of the generated code.
Three tables: the bundled Japanese sales sample, and two it has never seen (an English HR table
and a Japanese weather table).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from bunseki.brain.analyst.offline.text import format_number
from bunseki.data import load_table
from bunseki.samples import SALES_CSV
from bunseki.service.analysis import AnalysisSession, TurnResult
from bunseki.settings import Settings

SALES = load_table(SALES_CSV).frame


def n(value: float) -> str:
    return format_number(float(value))


@pytest.fixture(scope="module")
def module_root() -> Iterator[Path]:
    import shutil
    import tempfile

    root = Path(tempfile.mkdtemp(prefix="bunseki-offline-"))
    root.chmod(0o711)
    yield root
    shutil.rmtree(root, ignore_errors=True)


def open_session(path: Path, root: Path) -> AnalysisSession:
    return AnalysisSession(path, settings=Settings(workspace_root=root, model="offline"))


@pytest.fixture(scope="module")
def sales(module_root: Path) -> Iterator[AnalysisSession]:
    with open_session(SALES_CSV, module_root) as session:
        yield session


def ask(session: AnalysisSession, question: str) -> TurnResult:
    session.messages = []
    result = session.ask(question)
    assert result.status in ("finalized", "asked"), result.error
    return result


def answer(session: AnalysisSession, question: str) -> str:
    result = ask(session, question)
    assert result.status == "finalized", result.question
    assert result.answer
    return result.answer


# --- the sales sample, in Japanese -------------------------------------------------------------


def test_total_with_a_category_filter(sales: AnalysisSession) -> None:
    expected = SALES.loc[SALES["地域"] == "関東", "売上金額"].sum()
    assert n(expected) in answer(sales, "関東の売上合計は？")


def test_mean_with_a_store_named_without_its_suffix(sales: AnalysisSession) -> None:
    expected = SALES.loc[SALES["店舗"] == "新宿店", "客数"].mean()
    assert n(expected) in answer(sales, "新宿の客数の平均を教えて")


def test_median_and_std(sales: AnalysisSession) -> None:
    assert n(SALES["売上金額"].median()) in answer(sales, "売上金額の中央値は？")
    expected = SALES.loc[SALES["商品カテゴリ"] == "家電", "売上金額"].std()
    assert n(expected) in answer(sales, "家電の売上の標準偏差")


def test_count_with_a_numeric_condition_in_man_units(sales: AnalysisSession) -> None:
    expected = int((SALES["売上金額"] >= 100_000).sum())
    assert n(expected) in answer(sales, "売上が10万円以上の取引は何件？")


def test_group_by_with_largest_and_smallest_and_a_chart(sales: AnalysisSession) -> None:
    totals = SALES.groupby("地域")["売上金額"].sum()
    result = ask(sales, "地域別の売上の合計をグラフにして")
    assert result.answer is not None
    assert totals.idxmax() in result.answer and n(totals.max()) in result.answer
    assert totals.idxmin() in result.answer and n(totals.min()) in result.answer
    charts = [path for path in result.artifacts if path.suffix == ".png"]
    assert charts and charts[0].is_file()
    assert result.report_markdown is not None and charts[0].name in result.report_markdown


def test_which_group_is_largest(sales: AnalysisSession) -> None:
    totals = SALES.groupby("店舗")["売上金額"].sum()
    text = answer(sales, "どの店舗の売上が一番多い？")
    assert totals.idxmax() in text and n(totals.max()) in text


def test_top_n(sales: AnalysisSession) -> None:
    top = SALES.groupby("店舗")["売上金額"].sum().nlargest(3)
    text = answer(sales, "売上上位3店舗は？")
    positions = [text.index(store) for store in top.index]
    assert positions == sorted(positions)


def test_share_of_one_group(sales: AnalysisSession) -> None:
    totals = SALES.groupby("地域")["売上金額"].sum()
    share = totals["関東"] / totals.sum() * 100
    assert f"{share:.1f}%" in answer(sales, "関東の売上の割合は？")


def test_growth_between_quarters(sales: AnalysisSession) -> None:
    dates = SALES["日付"]
    q2 = SALES.loc[(dates >= "2024-04-01") & (dates < "2024-07-01"), "売上金額"].sum()
    q3 = SALES.loc[(dates >= "2024-07-01") & (dates < "2024-10-01"), "売上金額"].sum()
    text = answer(sales, "第2四半期と第3四半期の売上を比較して")
    assert n(q2) in text and n(q3) in text
    assert f"{(q3 - q2) / q2 * 100:+.1f}%" in text


def test_monthly_trend_with_a_chart(sales: AnalysisSession) -> None:
    monthly = SALES.set_index("日付")["売上金額"].resample("MS").sum()
    result = ask(sales, "月別の売上推移をグラフで見せて")
    peak = monthly.idxmax()
    assert result.answer is not None and f"{peak.year}年{peak.month}月" in result.answer
    assert n(monthly.max()) in result.answer
    assert any(path.suffix == ".png" for path in result.artifacts)


def test_date_window(sales: AnalysisSession) -> None:
    expected = SALES.loc[(SALES["日付"] >= "2024-07-01") & (SALES["商品カテゴリ"] == "飲料"), "売上金額"].sum()
    assert n(expected) in answer(sales, "7月以降の飲料の売上")


def test_correlation(sales: AnalysisSession) -> None:
    r = SALES["数量"].corr(SALES["客数"])
    assert f"{r:.3f}" in answer(sales, "数量と客数の相関は？")


def test_missing_values(sales: AnalysisSession) -> None:
    expected = int(SALES["客数"].isna().sum())
    text = answer(sales, "欠損値はある？")
    assert "客数" in text and n(expected) in text


def test_distinct_count(sales: AnalysisSession) -> None:
    assert f"{SALES['店舗'].nunique()} 種類" in answer(sales, "店舗は何店舗ある？")


def test_outliers_by_z_score(sales: AnalysisSession) -> None:
    values = SALES["売上金額"]
    z = (values - values.mean()) / values.std()
    assert n(int((z.abs() > 3).sum())) in answer(sales, "売上金額の外れ値は？")


def test_derived_ratio_column(sales: AnalysisSession) -> None:
    ratio = SALES["売上金額"] / SALES["客数"].replace(0, np.nan)
    assert n(ratio.mean()) in answer(sales, "平均客単価は？")


def test_comparison_of_two_values(sales: AnalysisSession) -> None:
    totals = SALES[SALES["都道府県"].isin(["東京都", "大阪府"])].groupby("都道府県")["数量"].sum()
    text = answer(sales, "東京と大阪の販売数量を比べて")
    assert n(totals["東京都"]) in text and n(totals["大阪府"]) in text


def test_unanswerable_question_asks_back_with_what_it_can_do(sales: AnalysisSession) -> None:
    result = ask(sales, "明日の天気は？")
    assert result.status == "asked"
    assert result.question is not None and "合計" in result.question and "売上金額" in result.question
    assert result.executions == []


def test_assumptions_are_recorded(sales: AnalysisSession) -> None:
    result = ask(sales, "店舗別の売上")
    assert result.report is not None
    assert any("合計" in assumption for assumption in result.report.assumptions)
    assert result.report_markdown is not None and "前提" in result.report_markdown


# --- tables it has never seen --------------------------------------------------------------------


@pytest.fixture(scope="module")
def hr_table(module_root: Path) -> pd.DataFrame:
    rng = np.random.default_rng(11)
    size = 600
    return pd.DataFrame(
        {
            "employee_id": np.arange(1000, 1000 + size),
            "department": rng.choice(["Engineering", "Sales", "Support", "Finance"], size),
            "salary": rng.normal(62000, 9000, size).round(0),
            "age": rng.integers(22, 64, size),
            "hire_date": pd.date_range("2018-01-01", periods=size, freq="3D"),
            "remote": rng.choice(["yes", "no"], size),
        }
    )


@pytest.fixture(scope="module")
def hr(hr_table: pd.DataFrame, module_root: Path) -> Iterator[AnalysisSession]:
    path = module_root / "staff.csv"
    hr_table.to_csv(path, index=False)
    with open_session(path, module_root) as session:
        yield session


def test_english_average_by_group(hr: AnalysisSession, hr_table: pd.DataFrame) -> None:
    means = hr_table.groupby("department")["salary"].mean()
    text = answer(hr, "What is the average salary by department?")
    assert means.idxmax() in text and n(means.max()) in text


def test_english_which_has_lowest(hr: AnalysisSession, hr_table: pd.DataFrame) -> None:
    means = hr_table.groupby("department")["age"].mean()
    text = answer(hr, "Which department has the lowest average age?")
    assert means.idxmin() in text and n(means.min()) in text


def test_english_count_with_condition(hr: AnalysisSession, hr_table: pd.DataFrame) -> None:
    expected = int((hr_table["salary"] > 70000).sum())
    assert n(expected) in answer(hr, "How many employees have a salary over 70,000?")


def test_english_filter_and_year(hr: AnalysisSession, hr_table: pd.DataFrame) -> None:
    rows = hr_table[(hr_table["department"] == "Sales") & (hr_table["hire_date"].dt.year == 2019)]
    assert n(rows["salary"].median()) in answer(hr, "Median salary in Sales for people hired in 2019")


def test_english_distinct(hr: AnalysisSession, hr_table: pd.DataFrame) -> None:
    assert "4 distinct" in answer(hr, "How many different departments are there?")


def test_english_fuzzy_column_name(hr: AnalysisSession, hr_table: pd.DataFrame) -> None:
    assert n(hr_table["salary"].max()) in answer(hr, "What is the maximum salry?")


@pytest.fixture(scope="module")
def weather(module_root: Path) -> Iterator[tuple[AnalysisSession, pd.DataFrame]]:
    rng = np.random.default_rng(5)
    days = pd.date_range("2023-01-01", "2023-12-31", freq="D")
    frame = pd.DataFrame(
        {
            "観測日": np.repeat(days, 3),
            "都市": np.tile(["札幌", "東京", "那覇"], len(days)),
            "最高気温": np.round(rng.normal(20, 8, len(days) * 3), 1),
            "降水量": np.round(rng.gamma(1.0, 4.0, len(days) * 3), 1),
        }
    )
    path = module_root / "気象.csv"
    frame.assign(観測日=frame["観測日"].dt.strftime("%Y年%m月%d日")).to_csv(path, index=False, encoding="euc_jp")
    with open_session(path, module_root) as session:
        yield session, frame


def test_japanese_weather_daily_max_city(weather: tuple[AnalysisSession, pd.DataFrame]) -> None:
    session, frame = weather
    rainfall = frame.groupby("都市")["降水量"].sum()
    text = answer(session, "都市ごとの降水量の合計")
    assert rainfall.idxmax() in text and n(rainfall.max()) in text


def test_japanese_weather_month_window(weather: tuple[AnalysisSession, pd.DataFrame]) -> None:
    session, frame = weather
    august = frame[(frame["観測日"].dt.month == 8) & (frame["都市"] == "那覇")]
    assert n(august["最高気温"].mean()) in answer(session, "8月の那覇の最高気温の平均は？")


def test_explicit_answer_format_is_honoured(weather: tuple[AnalysisSession, pd.DataFrame]) -> None:
    session, frame = weather
    mean = frame["降水量"].mean()
    r = frame["最高気温"].corr(frame["降水量"])
    text = answer(
        session,
        "Calculate the mean of 降水量 and the Pearson correlation between 最高気温 and 降水量.\n"
        "Format: @mean_rain[value] rounded to two decimal places, "
        "@correlation_coefficient[r] rounded to three decimal places.",
    )
    assert f"@mean_rain[{mean:.2f}]" in text
    assert f"@correlation_coefficient[{r:.3f}]" in text

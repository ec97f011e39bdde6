"""The EDA profile, checked statistic by statistic against pandas computed independently."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from bunseki.data import load_table
from bunseki.data.profile import (
    MAX_CORRELATION_COLUMNS,
    MAX_CORRELATION_PAIRS,
    TOP_VALUES,
    VALUE_CHARS,
    ColumnProfile,
    TableProfile,
    profile_table,
)

ROWS = 2000


def sales_table(rows: int = ROWS) -> pd.DataFrame:
    """Japanese names, missing values, outliers, ties, dates with gaps, booleans, codes and duplicate rows."""
    rng = np.random.default_rng(7)
    price = rng.lognormal(7, 0.8, rows)
    price[rng.choice(rows, 15, replace=False)] *= 40  # outliers
    quantity = rng.integers(0, 12, rows).astype("float64")  # many ties and zeros
    quantity[rng.random(rows) < 0.05] = np.nan
    sales = price * np.nan_to_num(quantity, nan=1.0)
    sales[rng.random(rows) < 0.08] = np.nan  # missing where 数量 is not: the masks differ
    discount = np.round(rng.beta(1, 6, rows), 2)
    discount[np.isnan(quantity)] = np.nan  # missing exactly where 数量 is: the masks are equal
    days = pd.Timestamp("2024-01-01") + pd.to_timedelta(rng.integers(0, 400, rows), unit="D")
    frame = pd.DataFrame(
        {
            "注文ID": [f"A{index:06d}" for index in range(rows)],
            "注文日": days,
            "地域": rng.choice(["関東", "近畿", "九州", "東北"], rows, p=[0.4, 0.3, 0.2, 0.1]),
            "会員": rng.random(rows) < 0.3,
            "返品": pd.array(np.where(rng.random(rows) < 0.1, None, rng.random(rows) < 0.05), dtype="boolean"),
            "単価": price,
            "数量": quantity,
            "売上": sales,
            "割引率": discount,
            "気温": rng.normal(15, 8, rows),
            "評価": rng.integers(1, 6, rows),
            "感想": [f"とても良い買い物でした その{index}" for index in range(rows)],
        }
    )
    repeated = rng.choice(rows, 30, replace=False)
    frame.iloc[repeated[:15]] = frame.iloc[repeated[15:]].to_numpy()
    frame.loc[frame.index[:4], ["数量", "割引率"]] = np.nan  # still missing together
    return frame


@pytest.fixture(scope="module")
def table() -> pd.DataFrame:
    return sales_table()


@pytest.fixture(scope="module")
def profile(table: pd.DataFrame) -> TableProfile:
    return profile_table(table)


def column(profile: TableProfile, name: str) -> ColumnProfile:
    found = profile.column(name)
    assert found is not None, name
    return found


def test_rows_and_duplicate_rows_match_pandas(table: pd.DataFrame, profile: TableProfile) -> None:
    assert profile.rows == ROWS
    assert profile.duplicates == int(table.duplicated().sum())
    assert profile.duplicates >= 15


@pytest.mark.parametrize("name", ["単価", "数量", "売上", "割引率", "気温", "評価"])
def test_numeric_statistics_match_pandas(table: pd.DataFrame, profile: TableProfile, name: str) -> None:
    values = table[name]
    facts = column(profile, name)
    q1, q3 = values.quantile(0.25), values.quantile(0.75)
    fence = 1.5 * (q3 - q1)
    assert facts.kind == "numeric"
    assert facts.missing == values.isna().sum()
    assert facts.missing_pct == pytest.approx(100 * values.isna().mean())
    assert facts.distinct == values.nunique()
    assert facts.mean == pytest.approx(values.mean(), rel=1e-12)
    assert facts.std == pytest.approx(values.std(), rel=1e-10)
    assert facts.min == values.min() and facts.max == values.max()
    assert facts.p25 == pytest.approx(q1, rel=1e-12)
    assert facts.median == pytest.approx(values.median(), rel=1e-12)
    assert facts.p75 == pytest.approx(q3, rel=1e-12)
    assert facts.skew == pytest.approx(values.skew(), rel=1e-9)
    assert facts.zeros == (values == 0).sum()
    assert facts.outliers == ((values < q1 - fence) | (values > q3 + fence)).sum()
    assert [top.count for top in facts.top_values] == values.value_counts().head(TOP_VALUES).tolist()


def test_outliers_are_found_where_they_were_put(profile: TableProfile) -> None:
    assert column(profile, "単価").outliers >= 15  # type: ignore[operator]
    assert column(profile, "評価").outliers == 0
    assert column(profile, "数量").zeros > 0


def test_other_kinds_match_pandas(table: pd.DataFrame, profile: TableProfile) -> None:
    expected_kinds = {"注文ID": "id", "注文日": "datetime", "地域": "categorical", "会員": "boolean"}
    expected_kinds |= {"返品": "boolean", "感想": "text"}
    for name, kind in expected_kinds.items():
        facts, values = column(profile, name), table[name]
        assert facts.kind == kind, name
        assert facts.missing == values.isna().sum(), name
        assert facts.distinct == values.nunique(), name
        counts = values.value_counts()
        assert [top.count for top in facts.top_values] == counts.head(TOP_VALUES).tolist(), name
        assert facts.mean is None and facts.outliers is None
    region = column(profile, "地域")
    assert region.top_values[0].value == table["地域"].value_counts().index[0]
    assert column(profile, "返品").missing > 0


def test_dates_have_their_range_and_frequency(table: pd.DataFrame, profile: TableProfile) -> None:
    dates = column(profile, "注文日")
    assert dates.min == table["注文日"].min().date().isoformat()
    assert dates.max == table["注文日"].max().date().isoformat()
    assert dates.frequency == "D"  # daily, with some days missing


@pytest.mark.parametrize(
    ("dates", "frequency"),
    [
        (pd.date_range("2024-01-01", periods=50, freq="h"), "h"),
        (pd.date_range("2020-01-01", periods=30, freq="MS").delete([3, 7]), "MS"),
        (pd.date_range("2020-01-31", periods=30, freq="ME"), "ME"),
        (pd.date_range("2024-01-01", periods=60, freq="W-MON"), "W-MON"),
        (pd.to_datetime(["2024-01-01", "2024-01-05", "2024-03-02", "2024-03-03", "2024-07-30"]), None),
    ],
)
def test_inferred_date_frequency(dates: pd.DatetimeIndex, frequency: str | None) -> None:
    profile = profile_table(pd.DataFrame({"日時": np.repeat(dates, 2)}))
    assert column(profile, "日時").frequency == frequency


def test_correlations_match_pandas_strongest_first(table: pd.DataFrame, profile: TableProfile) -> None:
    numeric = table[["単価", "数量", "売上", "割引率", "気温", "評価"]]
    pearson, spearman = numeric.corr(), numeric.corr(method="spearman")
    assert len(profile.correlations) == 15
    for pair in profile.correlations:
        assert pair.pearson == pytest.approx(pearson.loc[pair.a, pair.b], abs=1e-12), (pair.a, pair.b)
        assert pair.spearman == pytest.approx(spearman.loc[pair.a, pair.b], abs=1e-12), (pair.a, pair.b)
    strengths = [abs(pair.pearson) for pair in profile.correlations]
    assert strengths == sorted(strengths, reverse=True)
    assert {profile.correlations[0].a, profile.correlations[0].b} == {"単価", "売上"}


def test_threads_do_not_change_the_profile(table: pd.DataFrame, profile: TableProfile) -> None:
    assert profile_table(table, workers=1) == profile
    assert profile_table(table, workers=3) == profile


def test_duplicates_count_missing_as_equal_and_minus_zero_as_zero() -> None:
    frame = pd.DataFrame(
        {
            "値": [0.0, -0.0, np.nan, np.nan, 1.5, 1.5, 2.0],
            "区分": ["甲", "甲", None, None, "乙", "丙", "乙"],
            "日付": pd.to_datetime(["2024-01-01"] * 2 + [None] * 2 + ["2024-01-02"] * 3),
        }
    )
    assert profile_table(frame).duplicates == frame.duplicated().sum() == 2


def test_kinds_of_identifiers_and_row_numbers() -> None:
    rows = 100
    frame = pd.DataFrame(
        {
            "No": np.arange(1, rows + 1),
            "会員番号": np.random.default_rng(1).permutation(rows) * 7 + 1000,
            "金額": np.random.default_rng(2).permutation(rows) * 13 + 5,  # unique integers, but a measure
            "uuid": [f"{index:08x}-aaaa-bbbb" for index in range(rows)],
            "氏名": [f"山田 太郎{index}" for index in range(rows)],
            "等級": np.random.default_rng(3).choice(["A", "B", "C"], rows),
        }
    )
    kinds = {facts.name: facts.kind for facts in profile_table(frame).columns}
    assert kinds == {
        "No": "id",
        "会員番号": "id",
        "金額": "numeric",
        "uuid": "id",
        "氏名": "text",
        "等級": "categorical",
    }


def test_identifiers_constants_and_empty_columns_stay_out_of_correlations() -> None:
    rows = 200
    rng = np.random.default_rng(5)
    frame = pd.DataFrame(
        {
            "ID": np.arange(rows),
            "一定": np.full(rows, 3.0),
            "空": np.full(rows, np.nan),
            "x": rng.normal(size=rows),
            "y": rng.normal(size=rows),
        }
    )
    profile = profile_table(frame)
    assert [(pair.a, pair.b) for pair in profile.correlations] == [("x", "y")]
    empty = column(profile, "空")
    assert empty.missing == rows and empty.distinct == 0 and empty.mean is None and empty.top_values == []
    constant = column(profile, "一定")
    assert constant.std == 0.0 and constant.skew == 0.0 and constant.outliers == 0


def test_tiny_and_empty_tables() -> None:
    empty = profile_table(pd.DataFrame({"a": pd.Series([], dtype="float64"), "b": pd.Series([], dtype="str")}))
    assert empty.rows == 0 and empty.duplicates == 0 and empty.correlations == []
    assert [facts.missing_pct for facts in empty.columns] == [0.0, 0.0]
    one = profile_table(pd.DataFrame({"a": [1.0], "b": ["x"]}))
    assert column(one, "a").mean == 1.0 and column(one, "a").std is None and column(one, "a").skew is None


def test_the_json_is_the_contract_and_has_no_nan(profile: TableProfile) -> None:
    document = json.loads(json.dumps(profile.model_dump(mode="json"), allow_nan=False))
    assert {"rows", "duplicates", "columns", "correlations"} <= set(document)
    contract = {"name", "kind", "dtype", "missing", "missing_pct", "distinct", "top_values", "mean", "std", "min"}
    contract |= {"p25", "median", "p75", "max", "skew", "zeros", "outliers", "frequency"}
    assert all(contract <= set(facts) for facts in document["columns"])
    assert set(document["correlations"][0]) == {"a", "b", "pearson", "spearman"}
    assert TableProfile.model_validate(document) == profile


def test_size_stays_bounded_for_wide_tables() -> None:
    rows, width = 300, 400
    rng = np.random.default_rng(9)
    numbers = pd.DataFrame(rng.normal(size=(rows, width)), columns=[f"センサー{i:03d}" for i in range(width)])
    texts = pd.DataFrame({f"自由記述{i}": ["長い文章" * 40 + str(j) for j in range(rows)] for i in range(100)})
    profile = profile_table(pd.concat([numbers, texts], axis=1))
    assert len(profile.columns) == width + 100
    assert len(profile.correlations) == MAX_CORRELATION_PAIRS
    assert profile.uncorrelated_columns == width - MAX_CORRELATION_COLUMNS
    assert all(len(facts.top_values) <= TOP_VALUES for facts in profile.columns)
    assert all(len(top.value) <= VALUE_CHARS for facts in profile.columns for top in facts.top_values)
    assert len(profile.model_dump_json()) < 1500 * len(profile.columns)  # per column, not per row


def test_a_cp932_file_profiles_with_japanese_names(tmp_path: Path) -> None:
    text = "日付,支店,売上金額,来店数\n" + "".join(
        f'2024/01/{day:02d},{"札幌" if day % 2 else "博多"},"{day * 1234:,}",{day % 5}\n' for day in range(1, 29)
    )
    path = tmp_path / "売上.csv"
    path.write_bytes(text.encode("cp932"))
    loaded = load_table(path)
    assert loaded.encoding == "cp932"
    profile = profile_table(loaded.frame)
    assert [facts.name for facts in profile.columns] == ["日付", "支店", "売上金額", "来店数"]
    sales = column(profile, "売上金額")
    assert sales.kind == "numeric" and sales.max == 28 * 1234 and sales.mean == pytest.approx(14.5 * 1234)
    assert column(profile, "日付").frequency == "D" and column(profile, "日付").min == "2024-01-01"
    assert {top.value for top in column(profile, "支店").top_values} == {"札幌", "博多"}
    pair = profile.correlations[0]
    assert {pair.a, pair.b} == {"売上金額", "来店数"}
    assert math.isclose(pair.pearson, loaded.frame["売上金額"].corr(loaded.frame["来店数"]), abs_tol=1e-12)


def test_other_dtypes_and_infinities_profile_without_warnings() -> None:
    rows = 50
    frame = pd.DataFrame(
        {
            "件数": pd.array([*range(rows - 1), None], dtype="Int64"),
            "比率": pd.array([0.5 * index for index in range(rows)], dtype="Float64"),
            "区分": pd.Categorical(["甲", "乙"] * (rows // 2)),
            "時刻": pd.date_range("2024-01-01", periods=rows, freq="D", tz="Asia/Tokyo"),
            "倍率": np.r_[np.inf, np.arange(rows - 1.0)],
        }
    )
    profile = profile_table(frame)  # pytest turns warnings into errors
    assert column(profile, "件数").missing == 1 and column(profile, "件数").max == rows - 2
    assert column(profile, "比率").mean == pytest.approx(frame["比率"].mean())
    assert column(profile, "区分").kind == "categorical" and column(profile, "区分").distinct == 2
    assert column(profile, "時刻").min == "2024-01-01" and column(profile, "時刻").frequency == "D"
    ratio = column(profile, "倍率")
    assert ratio.max is None and ratio.mean is None and ratio.min == 0.0  # infinite, so not a number to report


def test_correlations_over_many_blocks_of_rows() -> None:
    rows = 150_000  # more than two blocks of the Pearson products
    rng = np.random.default_rng(12)
    base = rng.normal(size=rows)
    frame = pd.DataFrame(
        {
            "x": base * 1000 + 5e6,  # far from 0: the sums must be centred to stay exact
            "y": np.where(rng.random(rows) < 0.2, np.nan, base + rng.normal(size=rows)),
            "z": np.where(rng.random(rows) < 0.3, np.nan, rng.integers(0, 50, rows)),
            "w": rng.exponential(size=rows),
        }
    )
    pearson, spearman = frame.corr(), frame.corr(method="spearman")
    profile = profile_table(frame)
    assert len(profile.correlations) == 6
    for pair in profile.correlations:
        assert pair.pearson == pytest.approx(pearson.loc[pair.a, pair.b], abs=1e-12), (pair.a, pair.b)
        assert pair.spearman == pytest.approx(spearman.loc[pair.a, pair.b], abs=1e-12), (pair.a, pair.b)

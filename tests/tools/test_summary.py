"""Read-only tools return a table and facts that agree with pandas, and never a new data state."""

from __future__ import annotations

import re

import pandas as pd
import pytest

from bunseki.errors import ToolRetry
from bunseki.tools import describe_column, get_data_overview, summarize_data, value_counts
from tests.tools import checked, sales, stocks

FRAME = sales()


def test_summarize_data_has_one_row_per_column_with_pandas_statistics() -> None:
    result = checked(summarize_data, FRAME)
    assert not result.changes_data and result.frame is None and result.table is not None
    table = result.table.set_index("column")
    assert list(table.index) == list(FRAME.columns)
    described = FRAME.describe()
    assert table.loc["売上", "mean"] == pytest.approx(described.loc["mean", "売上"])
    assert table.loc["数量", "75%"] == pytest.approx(described.loc["75%", "数量"])
    assert table["mean"].isna().loc["地域"]
    assert table.loc["地域", "missing"] == FRAME["地域"].isna().sum() == 36
    assert result.details["rows"] == 600 and result.details["columns"] == 7
    assert result.details["missing"] == {"地域": 36, "売上": 47}
    assert result.details["numeric_columns"] == ["売上", "数量"]
    assert result.details["dtypes"]["日付"] == str(FRAME["日付"].dtype)
    assert result.summary_en == "600 rows × 7 columns (2 numeric); 83 missing values in 2 columns."
    assert result.summary_ja == "600 行 × 7 列（数値列 2 列）。欠損値は 2 列に計 83 件です。"


def test_summarize_data_works_without_numbers_or_gaps() -> None:
    result = checked(summarize_data, pd.DataFrame({"名前": pd.Series(["佐藤", "鈴木"], dtype="str")}))
    assert result.table is not None and len(result.table) == 1
    assert result.summary_en == "2 rows × 1 column (0 numeric); no missing values."


def test_describe_a_numeric_column() -> None:
    result = checked(describe_column, FRAME, column="売上")
    assert result.table is not None
    statistics = dict(zip(result.table["statistic"], result.table["value"], strict=True))
    expected = FRAME["売上"].describe()
    assert statistics["mean"] == pytest.approx(expected["mean"])
    assert statistics["50%"] == pytest.approx(expected["50%"])
    assert statistics["skew"] == pytest.approx(FRAME["売上"].skew())
    assert statistics["missing"] == 47
    assert result.details["kind"] == "number" and result.details["count"] == 553
    assert result.summary_en.startswith("売上: 553 values, mean ")
    assert "; 47 missing." in result.summary_en and "欠損 47 件" in result.summary_ja


def test_describe_a_text_column_lists_its_common_values() -> None:
    result = checked(describe_column, FRAME, column="地域")
    expected = FRAME["地域"].value_counts()
    assert result.table is not None
    assert result.table["value"].tolist() == expected.index.tolist()
    assert result.table["count"].tolist() == expected.tolist()
    assert result.table["share"].sum() == pytest.approx(1.0)
    assert result.details["unique"] == 4 and result.details["missing"] == 36
    top = expected.index[0]
    assert result.summary_en == f"地域: 564 values, 4 distinct, most common {top} ({expected.iloc[0]:,}); 36 missing."


def test_describe_dates_and_true_false_columns() -> None:
    dates = checked(describe_column, FRAME, column="日付")
    flags = checked(describe_column, FRAME, column="会員")
    assert dates.details["first"] == "2024-01-01T09:00:00"
    assert dates.details["last"] == FRAME["日付"].max().isoformat()
    assert dates.details["span_days"] == (FRAME["日付"].max() - FRAME["日付"].min()).days
    assert dates.summary_en.startswith("日付: 600 dates from 2024-01-01 09:00:00 to ")
    assert flags.details["kind"] == "boolean" and flags.details["unique"] == 2
    assert flags.table is not None and set(flags.table["value"]) == {"True", "False"}


def test_describe_a_category_column() -> None:
    result = checked(describe_column, stocks(), column="Sector")
    assert result.details["kind"] == "category" and result.details["count"] == 300


def test_value_counts_match_pandas_and_include_missing() -> None:
    result = checked(value_counts, FRAME, column="地域")
    expected = FRAME["地域"].value_counts(dropna=False)
    assert result.table is not None
    assert list(result.table.columns) == ["地域", "count"]
    assert result.table["count"].tolist() == expected.tolist()
    assert result.table["地域"].isna().sum() == 1
    top, count = expected.index[0], expected.iloc[0]
    assert result.summary_en == (
        f"地域 has 4 distinct values; the most common is {top} ({count:,} of 600 rows, {count / 600:.1%})."
    )
    assert f"最も多いのは {top} です（600 行中 {count:,} 行" in result.summary_ja


def test_value_counts_top_n_and_shares() -> None:
    result = checked(value_counts, FRAME, column="店舗コード", top_n=5, normalize=True)
    expected = FRAME["店舗コード"].value_counts(normalize=True).head(5)
    assert result.table is not None
    assert list(result.table.columns) == ["店舗コード", "share"]
    assert result.table["share"].tolist() == pytest.approx(expected.tolist())
    assert result.details["shown"] == 5
    assert result.details["other_rows"] == 600 - FRAME["店舗コード"].value_counts().head(5).sum()
    with pytest.raises(ToolRetry, match="top_n must be a positive number of values, not 0"):
        value_counts(FRAME, column="店舗コード", top_n=0)


def test_value_counts_of_an_empty_table() -> None:
    result = checked(value_counts, FRAME.head(0), column="地域")
    assert result.table is not None and result.table.empty
    assert result.summary_en == "地域 has no values."


def test_overview_classifies_columns_and_measures_memory() -> None:
    result = checked(get_data_overview, FRAME)
    details = result.details
    assert details["rows"] == 600 and details["columns"] == 7
    assert details["column_names"] == list(FRAME.columns)
    assert details["numeric_columns"] == ["売上", "数量"]
    assert details["categorical_columns"] == ["地域", "商品名", "会員", "店舗コード"]
    assert details["datetime_columns"] == ["日付"]
    assert details["memory_bytes"] == FRAME.memory_usage(deep=True).sum()
    assert details["memory_mb"] == pytest.approx(details["memory_bytes"] / 1024**2, abs=1e-3)
    assert result.table is not None
    assert result.table.set_index("column").loc["地域", "unique"] == 4
    assert result.summary_en.startswith("600 rows × 7 columns: 2 numeric, 4 categorical, 1 date; ")
    assert result.summary_ja.startswith("600 行 × 7 列（数値 2 列、カテゴリ 4 列、日付 1 列）")


def test_unknown_columns_are_refused_by_every_column_tool() -> None:
    for tool in (describe_column, value_counts):
        with pytest.raises(ToolRetry, match=re.escape("There is no column '商品'. Did you mean '商品名'")):
            tool(FRAME, column="商品")

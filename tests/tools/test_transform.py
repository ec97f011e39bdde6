"""Column transforms, calculated columns and sorting: values as pandas computes them, counts in the summary."""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pandas as pd
import pytest

from bunseki.errors import ToolRetry
from bunseki.tools import add_calculated_column, sort_data, transform_column
from tests.tools import checked, sales, stocks

FRAME = sales()
MESSY = pd.DataFrame(
    {
        "金額": pd.Series(["1,234", "１２３", " 56 ", "不明", None, "7.5"], dtype="str"),
        "日付": pd.Series(["2024-01-05", "2024-02-10 09:30", "2024-03-01", "未定", None, "2024-12-31"], dtype="str"),
        "和暦風": pd.Series(["2024年1月5日", "2024年2月10日", None, "2024年3月1日", "2024年4月1日", "x"], dtype="str"),
        "コード": [20240105, 20240210, 20240301, 20240401, 20240501, 20240601],
        "担当": pd.Series(["\u3000佐藤 ", "Suzuki", " tanaka", None, "佐藤", "SATO"], dtype="str"),
        "点数": [-2.5, 0.0, 4.0, np.nan, 9.0, 16.0],
    }
)


def test_round_defaults_to_two_decimals_and_counts_changes() -> None:
    frame = stocks()
    result = checked(transform_column, frame, column="Close Price", operation="round")
    assert result.frame is not None
    pd.testing.assert_series_equal(result.frame["Close Price"], frame["Close Price"].round(2))
    changed = int((frame["Close Price"].round(2) != frame["Close Price"]).sum())
    assert result.details["affected_rows"] == changed
    assert result.summary_en == f"Applied round (2 decimals) to Close Price: {changed:,} of 300 values changed."
    assert list(result.frame.columns) == list(frame.columns)


def test_round_takes_decimals_and_refuses_a_fraction() -> None:
    result = checked(transform_column, FRAME, column="売上", operation="round", params={"decimals": -3})
    assert result.frame is not None
    pd.testing.assert_series_equal(result.frame["売上"], FRAME["売上"].round(-3))
    with pytest.raises(ToolRetry, match=re.escape("round takes params {'decimals': 2} with a whole number, not 1.5")):
        transform_column(FRAME, column="売上", operation="round", params={"decimals": 1.5})


@pytest.mark.parametrize(
    ("operation", "function", "lost"),
    [("abs", np.abs, 0), ("log", np.log, 2), ("log10", np.log10, 2), ("sqrt", np.sqrt, 1)],
)
def test_math_leaves_impossible_values_missing_and_says_how_many(operation: Any, function: Any, lost: int) -> None:
    result = checked(transform_column, MESSY, column="点数", operation=operation)
    assert result.frame is not None
    with np.errstate(all="ignore"):
        expected = pd.Series(function(MESSY["点数"]), name="点数")
    if operation in ("log", "log10"):
        expected = expected.mask(MESSY["点数"] <= 0)
    pd.testing.assert_series_equal(result.frame["点数"], expected)
    assert result.details["became_missing"] == lost
    if lost:
        assert f"{lost:,} became missing" in result.summary_en and f"{lost:,} 件が欠損に" in result.summary_ja


def test_replace_maps_text_values() -> None:
    result = checked(
        transform_column,
        FRAME,
        column="地域",
        operation="replace",
        params={"mapping": {"関東": "東日本", "九州": "西日本"}},
    )
    assert result.frame is not None
    expected = FRAME["地域"].replace({"関東": "東日本", "九州": "西日本"})
    pd.testing.assert_series_equal(result.frame["地域"], expected)
    assert result.details["affected_rows"] == FRAME["地域"].isin(["関東", "九州"]).sum()


def test_replace_reads_json_text_keys_as_numbers_in_a_numeric_column() -> None:
    result = checked(transform_column, FRAME, column="数量", operation="replace", params={"mapping": {"0": 1}})
    assert result.frame is not None
    assert (result.frame["数量"] == 0).sum() == 0
    assert result.details["affected_rows"] == (FRAME["数量"] == 0).sum() > 0


def test_replace_of_values_no_row_has_is_refused_with_the_closest() -> None:
    with pytest.raises(ToolRetry, match=re.escape("No row has 地域 = 関東地方. Closest values: '関東'")):
        transform_column(FRAME, column="地域", operation="replace", params={"mapping": {"関東地方": "東"}})
    with pytest.raises(ToolRetry, match=re.escape('replace needs params {"mapping"')):
        transform_column(FRAME, column="地域", operation="replace")


def test_to_numeric_reads_full_width_digits_and_thousands_separators() -> None:
    result = checked(transform_column, MESSY, column="金額", operation="to_numeric")
    assert result.frame is not None
    assert result.frame["金額"].iloc[:3].tolist() == [1234.0, 123.0, 56.0]
    assert np.isnan(result.frame["金額"].iloc[3]) and result.frame["金額"].iloc[5] == 7.5
    assert result.details["became_missing"] == 1  # 不明
    assert result.details["dtype_after"] == "float64"
    with pytest.raises(ToolRetry, match="None of the values of 担当 read as numbers"):
        transform_column(MESSY, column="担当", operation="to_numeric")


def test_to_datetime_reads_iso_text_and_formats() -> None:
    iso = checked(transform_column, MESSY, column="日付", operation="to_datetime")
    japanese = checked(
        transform_column, MESSY, column="和暦風", operation="to_datetime", params={"format": "%Y年%m月%d日"}
    )
    codes = checked(transform_column, MESSY, column="コード", operation="to_datetime", params={"format": "%Y%m%d"})
    assert iso.frame is not None and japanese.frame is not None and codes.frame is not None
    assert iso.frame["日付"].iloc[1] == pd.Timestamp("2024-02-10 09:30")
    assert iso.details["became_missing"] == 1 and "1 became missing" in iso.summary_en
    assert japanese.frame["和暦風"].iloc[0] == pd.Timestamp("2024-01-05")
    assert codes.frame["コード"].iloc[-1] == pd.Timestamp("2024-06-01")
    assert "to_datetime (%Y%m%d)" in codes.summary_en


def test_to_datetime_says_which_format_to_give() -> None:
    with pytest.raises(ToolRetry, match=re.escape('give params {"format": "%Y%m%d"} to read them as dates')):
        transform_column(MESSY, column="コード", operation="to_datetime")
    with pytest.raises(ToolRetry, match="No value of 担当 read as a date"):
        transform_column(MESSY, column="担当", operation="to_datetime")


def test_text_operations_strip_full_width_spaces_and_change_case() -> None:
    stripped = checked(transform_column, MESSY, column="担当", operation="strip")
    upper = checked(transform_column, MESSY, column="担当", operation="upper")
    assert stripped.frame is not None and upper.frame is not None
    assert stripped.frame["担当"].tolist()[:3] == ["佐藤", "Suzuki", "tanaka"]
    assert stripped.details["affected_rows"] == 2
    assert upper.frame["担当"].iloc[1] == "SUZUKI"
    assert upper.frame["担当"].isna().sum() == 1
    with pytest.raises(ToolRetry, match="lower needs text but 点数 holds numbers"):
        transform_column(MESSY, column="点数", operation="lower")


def test_fillna_with_a_value_or_a_strategy() -> None:
    value = checked(transform_column, FRAME, column="売上", operation="fillna", params={"value": 0})
    median = checked(transform_column, FRAME, column="売上", operation="fillna", params={"strategy": "median"})
    forward = checked(transform_column, FRAME, column="地域", operation="fillna", params={"strategy": "ffill"})
    assert value.frame is not None and median.frame is not None and forward.frame is not None
    assert value.frame["売上"].isna().sum() == 0 and value.details["affected_rows"] == 47
    assert median.frame["売上"].iloc[0] == FRAME["売上"].median()
    assert f"median {FRAME['売上'].median():,.0f}" in median.summary_en
    pd.testing.assert_series_equal(forward.frame["地域"], FRAME["地域"].ffill())


def test_fillna_refuses_unclear_params() -> None:
    with pytest.raises(ToolRetry, match="fillna needs params"):
        transform_column(FRAME, column="売上", operation="fillna")
    with pytest.raises(ToolRetry, match="strategy must be one of 'mean', 'median', 'mode', 'ffill', 'bfill'"):
        transform_column(FRAME, column="売上", operation="fillna", params={"strategy": "average"})
    with pytest.raises(ToolRetry, match="mean needs numbers but 地域 holds text"):
        transform_column(FRAME, column="地域", operation="fillna", params={"strategy": "mean"})


def test_unknown_operations_and_params_list_the_valid_ones() -> None:
    with pytest.raises(ToolRetry, match="operation must be one of 'round', 'abs', 'log', 'log10', 'sqrt', 'replace'"):
        transform_column(FRAME, column="売上", operation="square")  # type: ignore[arg-type]
    with pytest.raises(ToolRetry, match="round takes params 'decimals', not 'digits'"):
        transform_column(FRAME, column="売上", operation="round", params={"digits": 1})
    with pytest.raises(ToolRetry, match="abs takes no params, not 'decimals'"):
        transform_column(FRAME, column="売上", operation="abs", params={"decimals": 1})
    with pytest.raises(ToolRetry, match="log needs numbers but 地域 holds text; convert it with operation to_numeric"):
        transform_column(FRAME, column="地域", operation="log")


def test_calculated_column_divides_with_nan_for_zero() -> None:
    result = checked(add_calculated_column, FRAME, new_column_name="単価", expression="売上 / 数量")
    expected = (FRAME["売上"] / FRAME["数量"]).where(FRAME["数量"] != 0)
    assert result.frame is not None
    pd.testing.assert_series_equal(result.frame["単価"], expected, check_names=False)
    assert not np.isinf(result.frame["単価"]).any()
    missing = int(expected.isna().sum())
    assert result.details["new_columns"] == ["単価"] and result.details["missing"] == missing
    assert result.details["columns_after"] == len(FRAME.columns) + 1
    assert result.summary_en == f"Added column 単価 = 売上 / 数量 ({missing:,} of 600 rows missing)."
    assert result.summary_ja == f"計算列 単価 = 売上 / 数量 を追加しました（600 行中 欠損 {missing:,} 行）。"


def test_calculated_column_with_backticks_replaces_an_existing_column() -> None:
    frame = stocks()
    result = checked(add_calculated_column, frame, new_column_name="Volume", expression="`Close Price` - `Open Price`")
    assert result.frame is not None
    pd.testing.assert_series_equal(
        result.frame["Volume"], frame["Close Price"] - frame["Open Price"], check_names=False
    )
    assert result.details["replaced_columns"] == ["Volume"] and result.details["new_columns"] == []
    assert result.summary_en.startswith("Replaced column Volume")


def test_calculated_column_needs_a_name_and_a_valid_expression() -> None:
    with pytest.raises(ToolRetry, match="new_column_name is empty"):
        add_calculated_column(FRAME, new_column_name="  ", expression="売上 * 2")
    with pytest.raises(ToolRetry, match=re.escape("There is no column '売り上げ'. Did you mean '売上'")):
        add_calculated_column(FRAME, new_column_name="x", expression="売り上げ * 2")


def test_sort_descending_with_top_n() -> None:
    result = checked(sort_data, FRAME, columns=["売上"], ascending=False, top_n=10)
    expected = FRAME.sort_values("売上", ascending=False, kind="stable").head(10)
    assert result.frame is not None
    pd.testing.assert_frame_equal(result.frame, expected)
    assert result.details == {"rows_before": 600, "rows_after": 10, "affected_rows": 590}
    assert result.summary_en == "Sorted 600 rows by 売上 (descending) and kept the first 10."
    assert result.summary_ja == "売上（降順）で並べ替えました（600 行、上位 10 行を残しました）。"


def test_sort_by_several_columns_puts_missing_values_last() -> None:
    result = checked(sort_data, FRAME, columns=["地域", "売上"], ascending=[True, False])
    expected = FRAME.sort_values(["地域", "売上"], ascending=[True, False], na_position="last")
    assert result.frame is not None
    pd.testing.assert_frame_equal(result.frame, expected)
    assert result.frame["地域"].tail(FRAME["地域"].isna().sum()).isna().all()
    assert "地域（昇順）、売上（降順）" in result.summary_ja


@pytest.mark.parametrize(
    ("arguments", "expected"),
    [
        ({"columns": ["売上"], "ascending": [True, False]}, "ascending has 2 values for 1 columns"),
        ({"columns": ["売上"], "top_n": 0}, "top_n must be a positive number of rows, not 0"),
        ({"columns": []}, "columns needs at least one column. Columns: '日付', '地域'"),
        ({"columns": ["sales"]}, "There is no column 'sales'"),
    ],
)
def test_unworkable_sorts_are_refused(arguments: dict[str, Any], expected: str) -> None:
    with pytest.raises(ToolRetry, match=expected):
        sort_data(FRAME, **arguments)

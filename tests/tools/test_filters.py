"""Filter tools keep exactly the rows pandas would, refuse unworkable conditions, and say so in numbers."""

from __future__ import annotations

import datetime as dt
import operator as op
from typing import Any

import pandas as pd
import pytest

from bunseki.errors import ToolRetry
from bunseki.tools import filter_by_range, filter_by_values, filter_data
from tests.tools import checked, sales, stocks

FRAME = sales()


def test_eq_on_text_keeps_the_matching_rows_and_counts_them() -> None:
    result = checked(filter_data, FRAME, column="地域", operator="eq", value="関東")
    expected = FRAME[FRAME["地域"] == "関東"]
    assert result.frame is not None
    pd.testing.assert_frame_equal(result.frame, expected)
    assert result.changes_data and result.table is None
    assert result.details == {
        "rows_before": 600,
        "rows_after": len(expected),
        "affected_rows": 600 - len(expected),
        "condition": "地域 = 関東",
    }
    assert result.summary_en == f"Kept {len(expected):,} of 600 rows where 地域 = 関東."
    assert result.summary_ja == f"地域 = 関東 の行に絞り込みました（600 行中 {len(expected):,} 行）。"


def test_ne_keeps_missing_values_as_pandas_does() -> None:
    result = checked(filter_data, FRAME, column="地域", operator="ne", value="関東")
    expected = FRAME[FRAME["地域"] != "関東"]
    assert result.frame is not None
    pd.testing.assert_frame_equal(result.frame, expected)
    assert result.frame["地域"].isna().sum() == FRAME["地域"].isna().sum() > 0


@pytest.mark.parametrize(("operator", "compare"), [("gt", op.gt), ("gte", op.ge), ("lt", op.lt), ("lte", op.le)])
def test_order_operators_on_numbers(operator: Any, compare: Any) -> None:
    result = checked(filter_data, FRAME, column="売上", operator=operator, value=20_000)
    assert result.frame is not None
    pd.testing.assert_frame_equal(result.frame, FRAME[compare(FRAME["売上"], 20_000)])


def test_a_number_given_as_text_still_compares_as_a_number() -> None:
    result = checked(filter_data, FRAME, column="売上", operator="gte", value="20,000")
    assert result.frame is not None
    assert len(result.frame) == (FRAME["売上"] >= 20_000).sum()


def test_dates_compare_with_iso_text() -> None:
    result = checked(filter_data, FRAME, column="日付", operator="gte", value="2024-03-01")
    assert result.frame is not None
    pd.testing.assert_frame_equal(result.frame, FRAME[FRAME["日付"] >= pd.Timestamp("2024-03-01")])
    assert "日付 ≥ 2024-03-01" in result.summary_en


def test_eq_on_a_date_column_reads_the_iso_text() -> None:
    stamp = FRAME["日付"].iloc[10]
    result = checked(filter_data, FRAME, column="日付", operator="eq", value=stamp.isoformat())
    assert result.frame is not None
    assert result.frame.index.tolist() == [10]


def test_in_and_not_in_take_lists() -> None:
    kept = checked(filter_data, FRAME, column="地域", operator="in", value=["関東", "九州"])
    dropped = checked(filter_data, FRAME, column="地域", operator="not_in", value=["関東", "九州"])
    assert kept.frame is not None and dropped.frame is not None
    pd.testing.assert_frame_equal(kept.frame, FRAME[FRAME["地域"].isin(["関東", "九州"])])
    pd.testing.assert_frame_equal(dropped.frame, FRAME[~FRAME["地域"].isin(["関東", "九州"])])
    assert len(kept.frame) + len(dropped.frame) == len(FRAME)
    assert "地域 is one of 関東, 九州" in kept.summary_en
    assert "関東, 九州 のいずれでもない" in dropped.summary_ja


def test_in_with_a_single_value_behaves_like_eq() -> None:
    single = checked(filter_data, FRAME, column="地域", operator="in", value="九州")
    assert single.frame is not None
    assert len(single.frame) == (FRAME["地域"] == "九州").sum()


def test_contains_is_plain_case_insensitive_text() -> None:
    coffee = checked(filter_data, FRAME, column="商品名", operator="contains", value="coffee")
    tea = checked(filter_data, FRAME, column="商品名", operator="not_contains", value="茶")
    assert coffee.frame is not None and tea.frame is not None
    assert set(coffee.frame["商品名"]) == {"Coffee Blend"}
    assert len(tea.frame) == (~FRAME["商品名"].str.contains("茶", regex=False)).sum()
    assert "商品名 に「茶」を含まない" in tea.summary_ja
    dotted = checked(filter_data, FRAME, column="商品名", operator="contains", value=".")
    assert dotted.frame is not None and dotted.frame.empty  # "." is text, not a pattern


def test_isnull_and_notnull_need_no_value() -> None:
    missing = checked(filter_data, FRAME, column="売上", operator="isnull")
    present = checked(filter_data, FRAME, column="売上", operator="notnull")
    assert missing.frame is not None and present.frame is not None
    assert len(missing.frame) == FRAME["売上"].isna().sum() == 47
    assert len(present.frame) == 600 - 47
    assert missing.summary_en == "Kept 47 of 600 rows where 売上 is missing."


def test_true_false_columns_accept_true_false_text() -> None:
    result = checked(filter_data, FRAME, column="会員", operator="eq", value="true")
    assert result.frame is not None
    assert len(result.frame) == FRAME["会員"].sum()


def test_an_unknown_column_names_the_closest_and_lists_all() -> None:
    with pytest.raises(ToolRetry) as raised:
        filter_data(FRAME, column="売り上げ", operator="gt", value=1)
    message = str(raised.value)
    assert "There is no column '売り上げ'" in message
    assert "Did you mean '売上'" in message
    assert all(f"'{name}'" in message for name in FRAME.columns)


def test_order_operators_refuse_text_and_say_what_it_holds() -> None:
    with pytest.raises(ToolRetry, match="gt needs numbers or dates but 地域 holds text; use eq, ne, in or contains"):
        filter_data(FRAME, column="地域", operator="gt", value="関東")


def test_an_unknown_operator_lists_the_valid_ones() -> None:
    with pytest.raises(ToolRetry) as raised:
        filter_data(FRAME, column="地域", operator="between", value="関東")  # type: ignore[arg-type]
    assert "operator must be one of 'eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'in', 'not_in'" in str(raised.value)
    assert "'isnull', 'notnull'" in str(raised.value)


def test_a_value_no_row_holds_is_refused_with_the_closest_values() -> None:
    with pytest.raises(ToolRetry) as raised:
        filter_data(FRAME, column="地域", operator="eq", value="関東地方")
    message = str(raised.value)
    assert "No row has 地域 = 関東地方" in message
    assert "Closest values: '関東'" in message
    assert "(4 distinct)" in message


@pytest.mark.parametrize(
    ("arguments", "expected"),
    [
        ({"column": "売上", "operator": "gt"}, "operator gt needs a value; only isnull and notnull"),
        ({"column": "地域", "operator": "eq", "value": ["関東", "近畿"]}, "use in or not_in for a list"),
        (
            {"column": "売上", "operator": "contains", "value": "1"},
            "contains needs a text column but 売上 holds numbers",
        ),
        ({"column": "売上", "operator": "gt", "value": "many"}, "売上 holds numbers, so value must be a number"),
        ({"column": "日付", "operator": "gt", "value": "someday"}, "write dates as ISO text such as '2024-01-31'"),
        ({"column": "日付", "operator": "gt", "value": 2024}, "日付 holds dates, so value must be a date such as"),
        ({"column": "会員", "operator": "eq", "value": "maybe"}, "must be true or false, not 'maybe'"),
    ],
)
def test_unworkable_values_say_what_would_work(arguments: dict[str, Any], expected: str) -> None:
    with pytest.raises(ToolRetry, match=expected):
        filter_data(FRAME, **arguments)


def test_range_on_numbers_includes_both_ends() -> None:
    low, high = FRAME["売上"].quantile(0.25), FRAME["売上"].quantile(0.75)
    result = checked(filter_by_range, FRAME, column="売上", min_value=low, max_value=high)
    assert result.frame is not None
    pd.testing.assert_frame_equal(result.frame, FRAME[FRAME["売上"].between(low, high, inclusive="both")])
    assert result.frame["売上"].min() == low and result.frame["売上"].max() == high


def test_range_with_one_bound() -> None:
    above = checked(filter_by_range, FRAME, column="数量", min_value=15)
    below = checked(filter_by_range, FRAME, column="数量", max_value=3)
    assert above.frame is not None and below.frame is not None
    assert len(above.frame) == (FRAME["数量"] >= 15).sum()
    assert len(below.frame) == (FRAME["数量"] <= 3).sum()
    assert above.summary_ja.startswith("数量 が 15 以上 の行に絞り込みました")


def test_a_date_only_upper_bound_includes_that_whole_day() -> None:
    result = checked(
        filter_by_range, FRAME, column="日付", min_value=dt.date(2024, 1, 10), max_value=dt.date(2024, 1, 31)
    )
    expected = FRAME[(FRAME["日付"] >= "2024-01-10") & (FRAME["日付"] < "2024-02-01")]
    assert result.frame is not None
    pd.testing.assert_frame_equal(result.frame, expected)
    assert result.frame["日付"].max().date() == dt.date(2024, 1, 31)
    assert "2024-01-10 ≤ 日付 ≤ 2024-01-31" in result.summary_en


def test_a_date_time_upper_bound_is_exact() -> None:
    bound = dt.datetime(2024, 1, 31, 12, 0)
    result = checked(filter_by_range, FRAME, column="日付", max_value=bound)
    assert result.frame is not None
    assert len(result.frame) == (FRAME["日付"] <= bound).sum()
    assert result.frame["日付"].max() <= bound


def test_range_on_time_zone_aware_dates_reads_naive_bounds_in_that_zone() -> None:
    frame = stocks().assign(Date=lambda f: f["Date"].dt.tz_localize("Asia/Tokyo"))
    result = checked(filter_by_range, frame, column="Date", min_value=dt.date(2023, 6, 1))
    assert result.frame is not None
    assert len(result.frame) == (frame["Date"] >= pd.Timestamp("2023-06-01", tz="Asia/Tokyo")).sum()


@pytest.mark.parametrize(
    ("arguments", "expected"),
    [
        ({"column": "売上"}, "needs min_value, max_value or both"),
        ({"column": "売上", "min_value": 10, "max_value": 1}, "min_value 10 is greater than max_value 1; swap them"),
        ({"column": "地域", "min_value": 1}, "needs a number or date column but 地域 holds text"),
        ({"column": "日付", "min_value": 5.0}, "日付 holds dates, so min_value must be a date such as '2024-01-31'"),
    ],
)
def test_unworkable_ranges_are_refused(arguments: dict[str, Any], expected: str) -> None:
    with pytest.raises(ToolRetry, match=expected):
        filter_by_range(FRAME, **arguments)


def test_a_date_bound_on_a_number_column_is_refused() -> None:
    with pytest.raises(ToolRetry, match="売上 holds numbers, so max_value must be a number, not the date 2024-01-31"):
        filter_by_range(FRAME, column="売上", max_value=dt.date(2024, 1, 31))


def test_values_keep_or_exclude() -> None:
    kept = checked(filter_by_values, FRAME, column="店舗コード", values=["S001", "S002", "S003"])
    dropped = checked(filter_by_values, FRAME, column="店舗コード", values=["S001", "S002", "S003"], exclude=True)
    assert kept.frame is not None and dropped.frame is not None
    pd.testing.assert_frame_equal(kept.frame, FRAME[FRAME["店舗コード"].isin(["S001", "S002", "S003"])])
    assert len(kept.frame) + len(dropped.frame) == 600
    assert dropped.details["affected_rows"] == len(kept.frame)


def test_values_report_the_ones_no_row_has() -> None:
    result = checked(filter_by_values, FRAME, column="地域", values=["関東", "沖縄"])
    assert result.frame is not None
    assert result.details["unmatched_values"] == ["沖縄"]
    assert len(result.frame) == (FRAME["地域"] == "関東").sum()


def test_values_on_numbers_and_an_empty_list() -> None:
    result = checked(filter_by_values, FRAME, column="数量", values=[0, 1])
    assert result.frame is not None
    assert len(result.frame) == FRAME["数量"].isin([0, 1]).sum()
    with pytest.raises(ToolRetry, match="values needs at least one value"):
        filter_by_values(FRAME, column="数量", values=[])


def test_category_columns_filter_like_text() -> None:
    frame = stocks()
    result = checked(filter_data, frame, column="Sector", operator="eq", value="Tech")
    assert result.frame is not None
    assert len(result.frame) == (frame["Sector"] == "Tech").sum()
    with pytest.raises(ToolRetry, match="Closest values: 'Tech'"):
        filter_data(frame, column="Sector", operator="eq", value="tech ")

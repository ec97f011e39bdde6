"""Aggregations match pandas, keep missing keys as a group, and name their columns predictably."""

from __future__ import annotations

import re
from typing import Any

import pandas as pd
import pytest

from bunseki.errors import ToolRetry
from bunseki.tools import aggregate_data, group_by, pivot_table
from tests.tools import checked, sales, stocks

FRAME = sales()


def test_sum_per_region_matches_pandas_and_keeps_the_missing_region() -> None:
    result = checked(aggregate_data, FRAME, group_by_columns=["地域"], agg_column="売上", agg_function="sum")
    expected = FRAME.groupby("地域", dropna=False)["売上"].sum()
    assert result.frame is not None
    assert list(result.frame.columns) == ["地域", "売上_sum"]
    assert len(result.frame) == 5  # four regions and the rows without one
    assert result.frame["地域"].isna().sum() == 1
    assert dict(zip(result.frame["地域"].fillna("?"), result.frame["売上_sum"], strict=True)) == dict(
        zip(expected.index.fillna("?"), expected, strict=True)
    )
    assert result.frame["売上_sum"].sum() == pytest.approx(FRAME["売上"].sum())
    assert result.details["rows_before"] == 600 and result.details["rows_after"] == 5
    assert result.details["new_columns"] == ["売上_sum"]
    assert result.summary_en == "Computed the sum of 売上 for each 地域: 600 rows → 5 groups (column 売上_sum)."
    assert result.summary_ja == "地域 ごとに 売上 の合計を計算しました（600 行 → 5 グループ、列 売上_sum）。"


@pytest.mark.parametrize("function", ["sum", "mean", "median", "count", "min", "max", "std", "nunique"])
def test_every_function_matches_pandas(function: Any) -> None:
    result = checked(aggregate_data, FRAME, group_by_columns=["商品名"], agg_column="売上", agg_function=function)
    expected = FRAME.groupby("商品名")["売上"].agg(function)
    assert result.frame is not None
    got = result.frame.set_index("商品名")[f"売上_{function}"]
    pd.testing.assert_series_equal(got, expected, check_names=False)


def test_two_keys_give_one_row_per_combination() -> None:
    result = checked(aggregate_data, FRAME, group_by_columns=["地域", "会員"], agg_column="数量", agg_function="count")
    assert result.frame is not None
    assert len(result.frame) == len(FRAME.groupby(["地域", "会員"], dropna=False))
    assert result.frame["数量_count"].sum() == 600
    assert "for each 地域 × 会員" in result.summary_en and "地域・会員 ごとに" in result.summary_ja


def test_no_keys_aggregate_the_whole_table() -> None:
    result = checked(aggregate_data, FRAME, group_by_columns=[], agg_column="売上", agg_function="mean")
    assert result.frame is not None
    assert result.frame.shape == (1, 1)
    assert result.frame["売上_mean"].iloc[0] == pytest.approx(FRAME["売上"].mean())
    assert "over all 600 rows" in result.summary_en


def test_min_and_max_work_on_dates() -> None:
    result = checked(aggregate_data, FRAME, group_by_columns=["地域"], agg_column="日付", agg_function="max")
    assert result.frame is not None
    assert result.frame["日付_max"].max() == FRAME["日付"].max()


@pytest.mark.parametrize(
    ("arguments", "expected"),
    [
        (
            {"group_by_columns": ["地域"], "agg_column": "商品名", "agg_function": "mean"},
            "mean needs numbers but 商品名 holds text; use count, nunique, min or max",
        ),
        (
            {"group_by_columns": ["地域"], "agg_column": "売上", "agg_function": "average"},
            "agg_function must be one of 'sum', 'mean', 'median', 'count', 'min', 'max', 'std', 'nunique'",
        ),
        (
            {"group_by_columns": ["地区"], "agg_column": "売上", "agg_function": "sum"},
            "There is no column '地区'. Did you mean '地域'",
        ),
        (
            {"group_by_columns": ["地域", "地域"], "agg_column": "売上", "agg_function": "sum"},
            "group_by_columns names a column twice",
        ),
    ],
)
def test_unworkable_aggregations_are_refused(arguments: dict[str, Any], expected: str) -> None:
    with pytest.raises(ToolRetry, match=expected):
        aggregate_data(FRAME, **arguments)


def test_group_by_flattens_several_aggregates() -> None:
    result = checked(
        group_by,
        FRAME,
        group_by_columns=["地域"],
        aggregations={"売上": ["sum", "mean"], "店舗コード": "nunique", "数量": ["max"]},
    )
    expected = FRAME.groupby("地域", dropna=False).agg(
        売上_sum=("売上", "sum"),
        売上_mean=("売上", "mean"),
        店舗コード_nunique=("店舗コード", "nunique"),
        数量_max=("数量", "max"),
    )
    assert result.frame is not None
    assert list(result.frame.columns) == ["地域", "売上_sum", "売上_mean", "店舗コード_nunique", "数量_max"]
    pd.testing.assert_frame_equal(result.frame, expected.reset_index())
    assert result.details["new_columns"] == ["売上_sum", "売上_mean", "店舗コード_nunique", "数量_max"]
    assert result.summary_en == (
        "Grouped 600 rows by 地域 into 5 groups with 売上_sum, 売上_mean, 店舗コード_nunique, 数量_max."
    )


def test_group_by_counts_a_key_column_itself() -> None:
    result = checked(group_by, FRAME, group_by_columns=["商品名"], aggregations={"商品名": "count"})
    assert result.frame is not None
    assert result.frame.set_index("商品名")["商品名_count"].to_dict() == FRAME["商品名"].value_counts().to_dict()


def test_group_by_refuses_an_empty_or_wrong_aggregation() -> None:
    with pytest.raises(
        ToolRetry, match=re.escape('aggregations needs at least one column and function, e.g. {"売上": "sum"}')
    ):
        group_by(FRAME, group_by_columns=["地域"], aggregations={})
    with pytest.raises(ToolRetry, match="aggregations needs at least one column and function"):
        group_by(FRAME, group_by_columns=["地域"], aggregations={"売上": []})
    with pytest.raises(ToolRetry, match="the function for 売上 must be one of 'sum', 'mean'"):
        group_by(FRAME, group_by_columns=["地域"], aggregations={"売上": ["sum", "total"]})  # type: ignore[list-item]
    with pytest.raises(ToolRetry, match="sum needs numbers but 地域 holds text"):
        group_by(FRAME, group_by_columns=["商品名"], aggregations={"地域": "sum"})


def test_pivot_matches_pandas_with_text_labels() -> None:
    result = checked(pivot_table, FRAME, index="地域", columns="商品名", values="売上", aggfunc="sum")
    expected = FRAME.pivot_table(
        index="地域", columns="商品名", values="売上", aggfunc="sum", fill_value=0, dropna=False
    )
    assert result.frame is not None
    assert list(result.frame.columns) == ["地域", *expected.columns]
    assert result.frame.set_index("地域").to_numpy().tolist() == expected.to_numpy().tolist()
    assert result.frame["地域"].isna().sum() == 1  # rows without a region stay, as in aggregate_data
    assert result.frame.drop(columns="地域").to_numpy().sum() == pytest.approx(FRAME["売上"].sum())
    assert result.details["new_columns"] == list(expected.columns)
    assert result.summary_en == "Pivoted the sum of 売上 by 地域 (rows) × 商品名 (columns): 5 rows × 5 value columns."


def test_pivot_fills_empty_cells_and_names_date_columns_by_day() -> None:
    frame = FRAME.head(30).assign(日=lambda f: f["日付"].dt.normalize())
    result = checked(pivot_table, frame, index="地域", columns="日", values="数量", aggfunc="max", fill_value=-1)
    assert result.frame is not None
    assert "2024-01-01" in result.frame.columns
    assert (result.frame.drop(columns="地域") == -1).to_numpy().any()
    assert "数量 の最大値を 地域（行）× 日（列）でピボットしました" in result.summary_ja


def test_pivot_keeps_missing_keys_as_a_labelled_column() -> None:
    result = checked(pivot_table, FRAME, index="会員", columns="地域", values="数量", aggfunc="count")
    assert result.frame is not None
    assert "(missing)" in result.frame.columns
    assert result.frame["(missing)"].sum() == FRAME.loc[FRAME["地域"].isna(), "数量"].count()


def test_pivot_refuses_too_many_columns_and_repeated_columns() -> None:
    with pytest.raises(
        ToolRetry, match=r"日付 has 600 distinct values, too many for pivot columns \(at most 100\); .* use group_by"
    ):
        pivot_table(FRAME, index="地域", columns="日付", values="売上")
    with pytest.raises(ToolRetry, match="index, columns and values names a column twice"):
        pivot_table(FRAME, index="地域", columns="地域", values="売上")
    with pytest.raises(ToolRetry, match="aggfunc must be one of 'sum', 'mean'"):
        pivot_table(FRAME, index="地域", columns="会員", values="売上", aggfunc="total")  # type: ignore[arg-type]


def test_category_keys_show_only_the_categories_present() -> None:
    frame = stocks()
    frame["Sector"] = frame["Sector"].cat.add_categories(["Energy"])
    result = checked(aggregate_data, frame, group_by_columns=["Sector"], agg_column="Volume", agg_function="sum")
    assert result.frame is not None
    assert sorted(result.frame["Sector"].astype(str)) == ["Auto", "Tech"]

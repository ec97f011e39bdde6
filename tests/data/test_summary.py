"""The table summary a model sees: per-column facts, at most three rows, bounded however wide."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from bunseki.data.summary import SAMPLE_ROWS, summarize

FRAME = pd.DataFrame(
    {
        "日付": pd.date_range("2024-01-01", periods=1000, freq="D"),
        "地域": np.random.default_rng(0).choice(["関東", "近畿", "九州"], 1000),
        "売上": np.arange(1000) * 10,
        "メモ": [f"自由記述のメモ {i} " * 3 for i in range(1000)],
        "会員": np.random.default_rng(1).choice([True, False], 1000),
        "等級": np.random.default_rng(2).choice([1, 2, 3], 1000),
    }
)


def test_facts_per_column() -> None:
    info = summarize(FRAME.assign(売上=FRAME["売上"].where(FRAME.index % 100 != 0)), source="売上.csv")
    sales = info.column("売上")
    assert sales is not None and sales.kind == "number" and sales.missing == 10
    assert sales.minimum == 10 and sales.maximum == 9990
    region = info.column("地域")
    assert region is not None and region.kind == "category" and region.unique == 3
    assert sorted(region.values or []) == ["九州", "近畿", "関東"]
    assert sum(count for _, count in region.top) == 1000
    assert info.column("日付").kind == "datetime"  # type: ignore[union-attr]
    assert info.column("日付").minimum == "2024-01-01"  # type: ignore[union-attr]
    assert info.column("メモ").kind == "text"  # type: ignore[union-attr]
    assert info.column("会員").kind == "boolean"  # type: ignore[union-attr]
    assert info.column("等級").values == ["1", "2", "3"]  # type: ignore[union-attr]


def test_the_prompt_shows_a_sample_but_never_more_rows() -> None:
    text = summarize(FRAME, source="売上.csv").to_prompt()
    assert "Table 売上.csv: 1,000 rows × 6 columns" in text
    assert "- 売上 (number, int64)" in text
    shown = [row for row in range(1000) if f"自由記述のメモ {row} " in text]
    assert len(shown) <= SAMPLE_ROWS


@pytest.mark.parametrize("columns", [50, 500, 2000])
@pytest.mark.parametrize("budget", [2000, 6000])
def test_the_prompt_stays_within_budget_for_wide_tables(columns: int, budget: int) -> None:
    wide = pd.DataFrame(
        np.random.default_rng(4).normal(size=(200, columns)),
        columns=[f"センサー測定値_{i:04d}" for i in range(columns)],
    )
    text = summarize(wide).to_prompt(budget)
    assert len(text) <= budget
    assert text.startswith(f"Table 200 rows × {columns:,} columns")
    assert "センサー測定値_0000" in text
    if len(summarize(wide).to_prompt(10**9)) > budget:
        assert "Sample rows" not in text  # detail was dropped first, not the header


def test_detail_degrades_before_columns_are_elided() -> None:
    info = summarize(FRAME)
    full, tight = info.to_prompt(10**6), info.to_prompt(400)
    assert "Sample rows" in full and "top:" in full
    assert "Sample rows" not in tight
    assert all(name in tight for name in FRAME.columns) or "more columns" in tight

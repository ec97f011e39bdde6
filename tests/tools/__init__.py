"""Frames the data-tool tests share, and a call that checks what every tool promises.

`checked` runs a tool, then asserts that the input frame still equals a deep copy taken before
and that the details are plain JSON, so every test checks both without saying so.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd

from bunseki.tools import ToolResult

REGIONS = ["関東", "近畿", "九州", "北海道"]
PRODUCTS = ["緑茶 500ml", "ほうじ茶", "Coffee Blend", "コーヒー豆", "Matcha Latte"]


def sales(rows: int = 600, seed: int = 0) -> pd.DataFrame:
    """Japanese sales records: dates with times, regions with gaps, prices with gaps, zero quantities."""
    rng = np.random.default_rng(seed)
    region = pd.Series(rng.choice(REGIONS, rows), dtype="str")
    region[np.arange(rows) % 17 == 0] = None
    amount = rng.integers(100, 50_000, rows).astype("float64")
    amount[np.arange(rows) % 13 == 0] = np.nan
    return pd.DataFrame(
        {
            "日付": pd.date_range("2024-01-01 09:00", periods=rows, freq="7h"),
            "地域": region,
            "商品名": pd.Series(rng.choice(PRODUCTS, rows), dtype="str"),
            "売上": amount,
            "数量": rng.integers(0, 20, rows),
            "会員": rng.choice([True, False], rows),
            "店舗コード": pd.Series([f"S{number:03d}" for number in rng.integers(1, 40, rows)], dtype="str"),
        }
    )


def stocks(rows: int = 300, seed: int = 1) -> pd.DataFrame:
    """English daily prices whose column names need backticks (spaces) in expressions."""
    rng = np.random.default_rng(seed)
    close = 100 + rng.normal(0, 5, rows).cumsum()
    return pd.DataFrame(
        {
            "Date": pd.date_range("2023-01-02", periods=rows, freq="B"),
            "Ticker": pd.Series(rng.choice(["7203.T", "6758.T", "AAPL"], rows), dtype="str"),
            "Sector": pd.Categorical(rng.choice(["Auto", "Tech"], rows)),
            "Open Price": close + rng.normal(0, 1, rows),
            "Close Price": close,
            "Volume": rng.integers(1_000, 1_000_000, rows),
        }
    )


def checked(tool: Callable[..., ToolResult], frame: pd.DataFrame, **arguments: Any) -> ToolResult:
    """Run ``tool`` and assert it left ``frame`` as it was and returned JSON-only details."""
    original = frame.copy(deep=True)
    result = tool(frame, **arguments)
    pd.testing.assert_frame_equal(frame, original)
    json.dumps(result.details, allow_nan=False)
    return result

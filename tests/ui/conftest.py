"""The web UI runs on a real service (offline brain, real sandbox) in a workspace of its own."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pandas as pd
import pytest
import streamlit as st

REGIONS = ["関東", "関西", "九州"]


@dataclass(frozen=True)
class JapaneseTable:
    """A small sales table in CP932, as a Japanese spreadsheet program saves it."""

    name: str
    content: bytes
    frame: pd.DataFrame

    def total(self, region: str) -> str:
        """The region's total sales as the offline analyst writes numbers (1,234,500)."""
        return f"{int(self.frame.loc[self.frame['地域'] == region, '売上金額'].sum()):,}"


@pytest.fixture(scope="session")
def sales_table() -> JapaneseTable:
    rows = []
    for month in range(1, 5):
        for index, region in enumerate(REGIONS):
            rows.append(
                {
                    "日付": f"2024-{month:02d}-{10 + index:02d}",
                    "地域": region,
                    "商品": "りんご" if month % 2 else "みかん",
                    "売上金額": 100_000 * (index + 1) + 12_345 * month,
                    "数量": 10 * month + index,
                }
            )
    frame = pd.DataFrame(rows)
    return JapaneseTable("売上データ.csv", frame.to_csv(index=False).encode("cp932"), frame)


@pytest.fixture
def ui_workspace(workspace_root: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The app's settings come from the environment, as under `bunseki ui`; its service is closed after."""
    monkeypatch.setenv("BUNSEKI_WORKSPACE_ROOT", str(workspace_root))
    monkeypatch.setenv("BUNSEKI_SANDBOX_TIMEOUT_S", "30")
    yield workspace_root
    st.cache_resource.clear()  # releases the cached AnalysisService, which stops its sandboxes

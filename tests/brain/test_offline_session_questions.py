"""Questions in a session answer without changing the data; only a request changes it (real sandbox)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from bunseki.service.analysis import AnalysisSession
from bunseki.settings import Settings


@pytest.fixture(scope="module")
def table() -> pd.DataFrame:
    rng = np.random.default_rng(7)
    rows = 60
    return pd.DataFrame(
        {
            "日付": pd.date_range("2023-01-01", periods=rows, freq="12D").strftime("%Y/%m/%d"),
            "カテゴリ": rng.choice(["食品", "飲料", "雑貨"], rows),
            "会員": rng.choice(["はい", "いいえ"], rows),
            "数量": rng.integers(1, 20, rows),
            "金額": rng.integers(100, 3000, rows),
        }
    )


@pytest.fixture(scope="module")
def session(table: pd.DataFrame, tmp_path_factory: pytest.TempPathFactory) -> Iterator[AnalysisSession]:
    root = tmp_path_factory.mktemp("bunseki-session-questions")
    root.chmod(0o711)
    path = Path(root) / "売上.csv"
    table.to_csv(path, index=False, encoding="cp932")
    with AnalysisSession(path, settings=Settings(workspace_root=root, model="offline")) as opened:
        yield opened


def test_an_aggregating_question_answers_and_keeps_the_rows(session: AnalysisSession, table: pd.DataFrame) -> None:
    session.restore_data()
    totals = table.groupby("カテゴリ")["数量"].sum()
    result = session.ask("カテゴリ別に数量を集計して、一番多いカテゴリを教えて")
    assert result.status == "finalized" and result.answer
    assert str(totals.idxmax()) in result.answer.split("（")[0]
    assert session.data_state.is_original  # the question did not replace the data
    session.ask("金額が1,000円以上のデータを抽出して")
    assert len(session.data_state.current) == int((table["金額"] >= 1000).sum())  # rows, not the aggregate


def test_an_explicit_request_still_reshapes_the_data(session: AnalysisSession, table: pd.DataFrame) -> None:
    session.restore_data()
    session.messages = []
    session.ask("カテゴリ別に数量を集計した表にして")
    assert len(session.data_state.current) == table["カテゴリ"].nunique()


def test_a_share_is_stated_as_a_percentage(session: AnalysisSession, table: pd.DataFrame) -> None:
    session.restore_data()
    session.messages = []
    expected = 100 * table.loc[table["カテゴリ"] == "食品", "金額"].sum() / table["金額"].sum()
    result = session.ask("食品の金額は全体の何％？")
    assert result.answer and f"{expected:.1f}%" in result.answer


def test_a_member_word_filters_and_a_formula_is_computed(session: AnalysisSession, table: pd.DataFrame) -> None:
    session.restore_data()
    session.messages = []
    members = session.ask("会員の取引は何件？")
    assert members.answer and f"{int((table['会員'] == 'はい').sum())} 件" in members.answer
    session.messages = []
    formula = session.ask("単価（金額÷数量）の平均は？")
    expected = (table["金額"] / table["数量"]).mean()
    assert formula.answer and f"{expected:,.1f}" in formula.answer

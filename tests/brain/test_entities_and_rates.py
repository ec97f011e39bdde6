"""Entities counted by their IDs, rates of yes/no columns, additive measures and words that are no values.

Tables are made here; each test names the kind of question, not a wording to match.
"""

from __future__ import annotations

import io
import re
from contextlib import redirect_stdout
from pathlib import Path

import matplotlib.pyplot as plt
import matplotlib_fontja  # noqa: F401  (the sandbox's Japanese font: its charts' labels render)
import numpy as np
import pandas as pd
import pytest
import seaborn as sns

from bunseki.brain.analyst.offline import codegen
from bunseki.brain.analyst.offline.parse import plan_question
from bunseki.brain.analyst.offline.plan import Clarification
from bunseki.data.summary import summarize
from tests.brain.planning import asked, plan

RNG = np.random.default_rng(11)
LINES = 300
ORDERS = pd.DataFrame(
    {
        "注文番号": [f"A{n:04d}" for n in np.sort(RNG.integers(0, 120, LINES))],  # one order, several lines
        "日付": pd.date_range("2024-01-01", periods=LINES, freq="8h"),
        "商品名": RNG.choice(["マルゲリータ", "ペパロニ", "ハワイアン"], LINES),
        "価格": RNG.integers(8, 30, LINES) * 100,
        "欠品": RNG.choice([True, False], LINES),
    }
)
ADS = pd.DataFrame(
    {
        "求人ID": RNG.integers(1, 60, LINES),
        "職種": RNG.choice(["事務", "営業", "秘書"], LINES),
        "履歴書の質": RNG.choice(["高", "低"], LINES),
        "PCスキル必須": RNG.integers(0, 2, LINES),
        "面接連絡": RNG.integers(0, 2, LINES),
    }
)
RUNS = pd.DataFrame(
    {
        "日付": pd.date_range("2023-01-01", periods=LINES, freq="D"),
        "シューズ": RNG.choice(["アシックス", "ナイキ"], LINES),
        "距離(マイル)": RNG.uniform(2, 14, LINES).round(1),
    }
)


@pytest.fixture(autouse=True)
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # charts are saved where the code runs


def printed(question: str, frame: pd.DataFrame, language: str = "en") -> str:
    """What the generated code prints for the question's plan, run in-process."""
    info = summarize(frame)
    code = codegen.generate(plan(question, info, language), info)
    out = io.StringIO()
    with redirect_stdout(out):
        exec(code, {"df": frame.copy(), "pd": pd, "np": np, "plt": plt, "sns": sns})
    return out.getvalue()


def test_orders_are_counted_by_their_id_not_by_their_lines() -> None:
    info = summarize(ORDERS)
    planned = plan("注文件数は全部で何件？", info)
    assert (planned.task, planned.target) == ("distinct", "注文番号")
    assert f"{ORDERS['注文番号'].nunique()}" in printed("注文件数は全部で何件？", ORDERS, "ja")
    assert plan("商品は何行ありますか", info).task != "distinct"  # no ID column named: the rows


def test_an_id_column_named_by_its_entity_is_no_quantity() -> None:
    """求人 names the ads (求人ID): a rate among them counts rows, it never sums the IDs."""
    planned = plan("PCスキル必須の求人だと、面接連絡率は何％？", summarize(ADS))
    assert planned.task == "ratio" and planned.target is None
    assert [f.column for f in planned.filters] == ["PCスキル必須"]


def test_a_rate_of_a_yes_no_column_per_group_is_its_share_and_高い_is_no_value() -> None:
    planned = plan("面接連絡率が一番高い職種はどれ？", summarize(ADS))
    assert planned.group_by == "職種"
    assert [f.column for f in planned.within] == ["面接連絡"]
    assert all(f.column != "履歴書の質" for f in planned.filters)  # 高 of 一番高い is no 履歴書の質
    assert plan("履歴書の質が高の応募は何件？", summarize(ADS)).filters[0].value == "高"


def test_a_counted_noun_the_reading_cannot_place_is_asked_when_a_flag_could_be_it() -> None:
    info = summarize(ORDERS)
    assert "品切" in asked("品切が一番多かった日はいつ？", info)  # 欠品's yes side, or every row?
    assert plan("価格が2000円以上の注文は何件？", info).filters  # a qualified noun: the rows themselves


def test_a_unit_of_time_asked_for_is_no_value() -> None:
    strikes = pd.DataFrame(
        {
            "date": pd.date_range("1990-01-01", periods=LINES, freq="5D"),
            "time_of_day": RNG.choice(["Day", "Night", "Dawn"], LINES),
        }
    )
    question = "How many days does the data cover, from the first strike to the last?"
    read = plan_question(question, summarize(strikes), "en")  # a span or a question back, never "Day" rows
    assert isinstance(read, Clarification) or all(f.column != "time_of_day" for f in read.filters)
    assert plan("How many strikes happened during the Day?", summarize(strikes), "en").filters[0].value == "Day"


def test_distance_adds_up_and_総_asks_for_a_total() -> None:
    info = summarize(RUNS)
    assert plan("この記録の総走行距離は？", info).stat == "sum"
    assert plan("2023年にいちばん距離を稼いだシューズはどれ？", info).stat == "sum"
    assert plan("総合評価の平均は？", summarize(ADS.assign(総合評価=1))).stat == "mean"


def test_weekdays_are_named_in_full_in_english() -> None:
    out = printed("Which day of the week has the most orders?", ORDERS.rename(columns={"日付": "date"}))
    assert any(day in out for day in ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"))
    assert "Mon " not in out and "Fri " not in out


def test_a_day_without_rows_is_no_day_of_zero_and_orders_per_day_are_distinct_orders() -> None:
    closed = ORDERS[ORDERS["日付"].dt.day_of_week != 0]  # closed on Mondays
    per_day = closed.groupby(closed["日付"].dt.normalize())["注文番号"].nunique()
    out = printed("注文件数がいちばん少なかった日は？", closed, "ja")
    low = re.search(r'"low": \["(?P<day>[^"]+)", (?P<value>[\d.]+)\]', out)
    assert low is not None and float(low.group("value")) == per_day.min() > 0  # a Monday would be 0
    assert pd.Timestamp(low.group("day")) in per_day[per_day == per_day.min()].index


def test_sales_of_a_table_of_items_sold_are_its_prices_added_up() -> None:
    """One row per item sold with its price and no quantity: 売上 is the sum of the prices, and says so."""
    planned = plan("1月の売上の合計は？", summarize(ORDERS))
    assert planned.derived is not None and planned.derived.left == "価格" and planned.stat == "sum"
    assert any("売上 = 価格" in a for a in planned.assumptions)
    january = ORDERS[ORDERS["日付"].dt.month == 1]["価格"].sum()
    assert f"{january:,}" in printed("1月の売上の合計は？", ORDERS, "ja")

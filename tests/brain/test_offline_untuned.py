"""No benchmark or sample words wired in: entities, thresholds, ratios and next steps come from the table.

Each table here has names the brain was never written against; the expected values are computed
with pandas and scipy.
"""

from __future__ import annotations

import io
import warnings
from contextlib import redirect_stdout
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
import seaborn as sns
from scipy import stats

from bunseki.brain.analyst.contract import ExecutionRecord
from bunseki.brain.analyst.offline import answer, catalog, codegen
from bunseki.brain.analyst.offline.parse import plan_question
from bunseki.brain.analyst.offline.plan import Plan
from bunseki.data.summary import DataFrameInfo, summarize

RNG = np.random.default_rng(5)
SIZE = 240
LEAGUE = pd.DataFrame(
    {
        "team": RNG.choice(["Owls", "Hawks", "Larks", "Crows"], SIZE),
        "venue": RNG.choice(["home", "away"], SIZE),
        "score": RNG.integers(0, 40, SIZE),
        "attempts": RNG.integers(10, 60, SIZE),
    }
)


@pytest.fixture(autouse=True)
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The generated code saves its charts in the working directory."""
    monkeypatch.chdir(tmp_path)


def run(question: str, frame: pd.DataFrame) -> tuple[Plan, dict[str, object]]:
    info = summarize(frame)
    plan = plan_question(question, info, "en")
    assert isinstance(plan, Plan), plan
    printed = io.StringIO()
    with redirect_stdout(printed):
        exec(codegen.generate(plan, info), {"df": frame, "pd": pd, "np": np, "plt": plt, "sns": sns})
    result = answer.result_of(ExecutionRecord(code="", success=True, stdout=printed.getvalue()))
    assert result is not None
    return plan, result


def test_an_entity_is_any_label_column_the_slot_names() -> None:
    """'team' was in no word list: the slot names a label column and an extreme, so the answer is a team."""
    means = LEAGUE.groupby("team")["score"].mean()
    _, result = run("Which team has the highest average score?\nFormat: @team_with_highest_score[team_name]", LEAGUE)
    assert result["answers"] == {"team_with_highest_score": str(means.idxmax())}


def test_a_correlation_threshold_is_read_however_it_is_written() -> None:
    x = np.linspace(0, 1, 300)
    frame = pd.DataFrame({"dose": x, "response": x + RNG.normal(0, 0.6, 300)})
    r, p = stats.pearsonr(frame["dose"], frame["response"])
    assert 0.3 <= abs(r) < 0.5 and p < 0.05  # between the question's threshold and the convention
    _, result = run(
        'Is the relationship between "dose" and "response" linear? Call it linear when |r| >= 0.3.\n'
        'Format: @relationship_type[type] where type is "linear", "nonlinear" or "none".',
        frame,
    )
    assert result["answers"] == {"relationship_type": "linear"}


def test_a_price_per_unit_comes_from_the_word_and_the_tables_own_columns() -> None:
    """坪単価 (price per tsubo) was in no ratio list: 価格 over 坪数, read from the word and the columns."""
    frame = pd.DataFrame(
        {
            "地区": RNG.choice(["北", "南"], SIZE),
            "価格": RNG.integers(1_000, 9_000, SIZE) * 10_000,
            "坪数": RNG.integers(15, 60, SIZE),
        }
    )
    plan, result = run("坪単価の平均は？", frame)
    assert plan.derived is not None and (plan.derived.left, plan.derived.right) == ("価格", "坪数")
    assert result["value"] == (frame["価格"] / frame["坪数"]).mean()


def _info(frame: pd.DataFrame) -> DataFrameInfo:
    return summarize(frame)


def report_steps(question: str, frame: pd.DataFrame, language: str = "en") -> list[str]:
    """The next steps the report of ``question`` suggests, the code run on ``frame``."""
    info = _info(frame)
    plan = plan_question(question, info, language)  # type: ignore[arg-type]
    assert isinstance(plan, Plan), plan
    printed = io.StringIO()
    with redirect_stdout(printed), warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # the test machine's font has no Japanese glyphs for titles
        exec(codegen.generate(plan, info), {"df": frame, "pd": pd, "np": np, "plt": plt, "sns": sns})
    record = ExecutionRecord(code="", success=True, stdout=printed.getvalue())
    result = answer.result_of(record)
    assert result is not None
    return answer.build_report(plan, record, result, info).suggestions or []


def test_next_steps_name_the_tables_own_columns_and_only_possible_steps() -> None:
    steps = report_steps("Show the top 2 teams by total score", LEAGUE)
    assert steps and any("venue" in step for step in steps)  # the other label column of this table
    assert not any("trend" in step.lower() or "categor" in step.lower() for step in steps)  # no dates here
    japanese = report_steps("チーム別のscoreの合計の上位2件", LEAGUE.rename(columns={"team": "チーム"}), "ja")
    assert japanese and not any("商品カテゴリ" in step for step in japanese)
    assert any("venue" in step for step in japanese)


def test_next_steps_follow_the_data_not_a_fixed_list() -> None:
    dated = LEAGUE.assign(day=pd.date_range("2024-01-01", periods=SIZE, freq="D"))
    without = report_steps("What is the total score?", LEAGUE)
    with_trend = report_steps("What is the total score?", dated)
    assert not any("trend" in step for step in without)
    assert any("trend of score" in step for step in with_trend)
    assert catalog.suggestions(None, _info(LEAGUE), "en", task="tools")[1] == "Aggregate it by team as a chart"

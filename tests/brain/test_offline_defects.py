"""Answers that must depend on the data: each test here failed before its fix (found by reviewing its answers).

The generated code runs in-process (the sandbox runs it the same way); every expected value is
computed here independently with pandas, numpy and scipy.
"""

from __future__ import annotations

import io
import math
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
import seaborn as sns
from scipy import stats

from bunseki.brain.analyst.contract import AnalystView, ExecutionRecord
from bunseki.brain.analyst.offline import OfflineAnalystBrain, answer
from bunseki.brain.analyst.offline.plan import Plan
from bunseki.data.summary import summarize

RNG = np.random.default_rng(11)
SIZE = 300
HEIGHT = RNG.normal(170, 8, SIZE).round(1)
FRAME = pd.DataFrame(
    {
        "height": HEIGHT,
        "weight": (HEIGHT * 0.9 - 90 + RNG.normal(0, 6, SIZE)).round(1),
        "income": RNG.lognormal(10, 0.8, SIZE).round(0),
        "team": RNG.choice(["red", "blue", "green"], SIZE),
    }
)


@pytest.fixture(autouse=True)
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The generated code saves its charts in the working directory."""
    monkeypatch.chdir(tmp_path)


def run(question: str, frame: pd.DataFrame = FRAME, language: str = "en") -> tuple[Plan, dict[str, Any], str]:
    """The brain's own decide → code → report, the code executed here: (plan, printed result, conclusion)."""
    brain = OfflineAnalystBrain()
    view = AnalystView(question=question, language=language, data=summarize(frame))  # type: ignore[arg-type]
    decision = brain.decide(view)
    assert decision.next_action == "act", decision.question
    code = brain.write_code(view).code
    printed = io.StringIO()
    with redirect_stdout(printed):
        exec(code, {"df": frame, "pd": pd, "np": np, "plt": plt, "sns": sns})
    record = ExecutionRecord(code=code, success=True, stdout=printed.getvalue())
    result = answer.result_of(record)
    assert result is not None
    report = brain.write_report(view.model_copy(update={"executions": [record]}))
    planned = brain._plan(view)
    assert isinstance(planned, Plan)
    return planned, result, report.conclusion


def asked(question: str, frame: pd.DataFrame = FRAME) -> str:
    decision = OfflineAnalystBrain().decide(AnalystView(question=question, language="en", data=summarize(frame)))
    assert decision.next_action == "ask", decision.instruction
    assert decision.question
    return decision.question


def slots(question: str, frame: pd.DataFrame = FRAME) -> dict[str, str]:
    _, result, _ = run(question, frame)
    return {name: str(value) for name, value in result["answers"].items()}


# --- a slot that names no statistic ------------------------------------------------------------


def test_a_slot_without_a_statistic_takes_the_one_the_question_names() -> None:
    got = slots("What is the median income?\nFormat: @answer[value] rounded to two decimal places.")
    assert got["answer"] == f"{FRAME['income'].median():.2f}"


def test_a_slot_without_a_statistic_takes_the_test_the_question_names() -> None:
    got = slots("What is the correlation between height and weight?\nFormat: @answer[value] rounded to two decimals.")
    assert got["answer"] == f"{FRAME['height'].corr(FRAME['weight']):.2f}"


def test_a_slot_without_any_statistic_is_asked_about_not_averaged() -> None:
    question = asked("Look at the income column.\nFormat: @answer[value]")
    assert "income" in question and "median" in question and "@answer" in question


# --- p-values are computed, never constants -----------------------------------------------------


def _anderson_p(values: pd.Series) -> float:
    """D'Agostino & Stephens (1986) p-value of the Anderson-Darling statistic, mean and sd estimated."""
    z = sorted((float(v) - values.mean()) / values.std() for v in values)
    n = len(z)
    cdf = [stats.norm.cdf(v) for v in z]
    total = sum((2 * i + 1) * (math.log(cdf[i]) + math.log(1 - cdf[n - 1 - i])) for i in range(n))
    a2 = (-n - total / n) * (1 + 0.75 / n + 2.25 / n**2)
    if a2 >= 0.6:
        return math.exp(1.2937 - 5.709 * a2 + 0.0186 * a2**2)
    if a2 >= 0.34:
        return math.exp(0.9177 - 4.279 * a2 - 1.38 * a2**2)
    if a2 >= 0.2:
        return 1 - math.exp(-8.318 + 42.796 * a2 - 59.938 * a2**2)
    return 1 - math.exp(-13.436 + 101.14 * a2 - 223.73 * a2**2)


def test_anderson_darling_p_value_is_computed() -> None:
    got = slots(
        "Test whether height is normally distributed using the Anderson-Darling test.\n"
        "Format: @p_value[p] rounded to four decimal places."
    )
    expected = _anderson_p(FRAME["height"])
    assert 0.0 < expected < 1.0
    assert got["p_value"] == f"{expected:.4f}"


def test_a_normality_p_value_judged_by_skewness_is_the_skewness_test() -> None:
    got = slots(
        "Check whether height is normally distributed by its skewness (between -0.5 and 0.5).\n"
        "Format: @p_value[p] rounded to four decimal places."
    )
    expected = stats.skewtest(FRAME["height"]).pvalue
    assert 0.0 < expected < 0.99
    assert got["p_value"] == f"{expected:.4f}"


# --- a yes/no skewness answer follows the data ---------------------------------------------------


def test_a_yes_no_skewness_answer_follows_the_test() -> None:
    symmetric = stats.skewtest(FRAME["height"]).pvalue
    skewed = stats.skewtest(FRAME["income"]).pvalue
    assert symmetric > 0.05 > skewed  # the table is built so that one is and one is not
    question = 'Is the {} distribution skewed?\nFormat: @is_skewed[answer] where answer is "yes" or "no".'
    assert slots(question.format("height"))["is_skewed"] == "no"
    assert slots(question.format("income"))["is_skewed"] == "yes"


# --- the asked correlation method ---------------------------------------------------------------


def test_kendall_is_computed_when_asked() -> None:
    tau, p = stats.kendalltau(FRAME["height"], FRAME["weight"])
    plan, result, conclusion = run("What is the Kendall correlation between height and weight?")
    assert plan.task == "correlation"
    assert result["method"] == "kendall"
    assert f"{tau:.3f}" in conclusion and "Kendall" in conclusion
    assert math.isclose(result["p"], p, rel_tol=1e-9)


def test_spearman_p_value_is_the_spearman_test() -> None:
    rho, p = stats.spearmanr(FRAME["height"], FRAME["weight"])
    _, result, conclusion = run("What is the Spearman correlation between height and weight?")
    assert result["method"] == "spearman"
    assert f"{rho:.3f}" in conclusion
    assert math.isclose(result["p"], p, rel_tol=1e-9)


def test_a_relationship_slot_uses_the_asked_method() -> None:
    """A monotone pair with a few extreme rows: Spearman sees a strong relation, Pearson does not."""
    x = np.linspace(0, 1, 200)
    y = x + RNG.normal(0, 0.05, 200)
    y[:6] = 60.0  # six extreme values at the low end pull Pearson's r down and leave the ranks nearly intact
    frame = pd.DataFrame({"dose": x, "response": y})
    rho, p = stats.spearmanr(x, y)
    r = stats.pearsonr(x, y)[0]
    assert abs(rho) >= 0.5 > abs(r) and p < 0.05  # the two methods disagree on this table
    got = slots(
        'Using the Spearman rank correlation, is there a relationship between "dose" and "response"?\n'
        'Format: @relationship_type[type] where type is "linear", "nonlinear" or "none".',
        frame,
    )
    assert got["relationship_type"] == "linear"


def executed_turn(brain: OfflineAnalystBrain, view: AnalystView) -> AnalystView:
    """The view after the plan's code ran here on FRAME."""
    code = brain.write_code(view).code
    printed = io.StringIO()
    with redirect_stdout(printed):
        exec(code, {"df": FRAME, "pd": pd, "np": np, "plt": plt, "sns": sns})
    record = ExecutionRecord(code=code, success=True, stdout=printed.getvalue())
    return view.model_copy(update={"executions": [record]})


def test_conditions_that_match_no_row_are_asked_about_not_answered_with_a_blank() -> None:
    brain = OfflineAnalystBrain()
    view = AnalystView(
        question="What is the mean income of rows with height above 250?", language="en", data=summarize(FRAME)
    )
    assert brain.decide(view).next_action == "act"
    after = brain.decide(executed_turn(brain, view))
    assert after.next_action == "ask"
    assert after.question is not None and "height > 250" in after.question
    # a count of no rows is an answer: 0
    counted = view.model_copy(update={"question": "How many rows have height above 250?"})
    assert brain.decide(executed_turn(brain, counted)).next_action == "finalize"

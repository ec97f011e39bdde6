"""Questions that name their answer format (@name[value]): slots, methods, rounding, choices.

The generated code is executed in-process here (the sandbox runs it the same way elsewhere), and
every expected value is computed independently with pandas and scipy.
"""

from __future__ import annotations

import io
from contextlib import redirect_stdout
from typing import Any

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from bunseki.brain.analyst.offline import codegen
from bunseki.brain.analyst.offline.parse import plan_question
from bunseki.brain.analyst.offline.plan import Clarification, Plan
from bunseki.data.summary import summarize

RNG = np.random.default_rng(3)
SIZE = 400
FRAME = pd.DataFrame(
    {
        "Pclass": RNG.choice([1, 2, 3], SIZE),
        "Sex": RNG.choice(["male", "female"], SIZE),
        "Age": np.where(RNG.random(SIZE) < 0.1, np.nan, RNG.normal(30, 12, SIZE).round(1)),
        "Fare": RNG.lognormal(3, 1, SIZE).round(2),
        "SibSp": RNG.integers(0, 4, SIZE),
        "Parch": RNG.integers(0, 3, SIZE),
        "state_abbr": RNG.choice(["IN", "NY", "CA"], SIZE),
    }
)


def answers(question: str, frame: pd.DataFrame = FRAME) -> dict[str, str]:
    plan = plan_question(question, summarize(frame), "en")
    assert isinstance(plan, Plan) and plan.task == "answers"
    code = codegen.generate(plan, summarize(frame))
    printed = io.StringIO()
    with redirect_stdout(printed):
        exec(code, {"df": frame, "pd": pd, "np": np})
    found = dict(line[1:].split("[", 1) for line in printed.getvalue().splitlines() if line.startswith("@"))
    return {name: value.rstrip("]") for name, value in found.items()}


def test_no_format_means_no_answer_plan() -> None:
    plan = plan_question("What is the mean fare?", summarize(FRAME), "en")
    assert isinstance(plan, Plan) and plan.task != "answers" and not plan.slots


def test_mean_rounded_as_asked() -> None:
    got = answers("Calculate the mean fare.\nFormat: @mean_fare[mean_fare_value] rounded to two decimal places.")
    assert got == {"mean_fare": f"{FRAME['Fare'].mean():.2f}"}


def test_population_standard_deviation_and_three_decimals() -> None:
    got = answers(
        "Calculate the population standard deviation of Fare.\n"
        "Format: @std_dev_fare[value] where value is rounded to three decimal places."
    )
    assert got["std_dev_fare"] == f"{FRAME['Fare'].std(ddof=0):.3f}"


def test_per_class_slots_filter_their_rows() -> None:
    got = answers(
        "Calculate the mean and median fare for each passenger class.\n"
        "Format: @mean_fare_class1[v] @median_fare_class3[v] rounded to two decimal places."
    )
    assert got["mean_fare_class1"] == f"{FRAME.loc[FRAME['Pclass'] == 1, 'Fare'].mean():.2f}"
    assert got["median_fare_class3"] == f"{FRAME.loc[FRAME['Pclass'] == 3, 'Fare'].median():.2f}"


def test_correlation_between_named_columns_and_its_p_value() -> None:
    r, p = stats.pearsonr(FRAME["Age"].dropna(), FRAME.loc[FRAME["Age"].notna(), "Fare"])
    got = answers(
        'What is the correlation between "Age" and "Fare"?\n'
        "Format: @correlation_coefficient[r] rounded to two decimal places, @p_value[p] rounded to four decimal places."
    )
    assert got["correlation_coefficient"] == f"{r:.2f}"
    assert got["p_value"] == f"{p:.4f}"


def test_new_feature_then_correlation() -> None:
    family = FRAME["SibSp"] + FRAME["Parch"]
    got = answers(
        'Create a new feature called "FamilySize" by summing the "SibSp" and "Parch" columns. Then calculate '
        'the Pearson correlation coefficient between the "FamilySize" and "Fare" columns.\n'
        "Format: @correlation_coefficient[r_value] rounded to two decimal places."
    )
    assert got["correlation_coefficient"] == f"{family.corr(FRAME['Fare']):.2f}"


def test_normality_answer_uses_the_formats_own_words() -> None:
    p = stats.shapiro(FRAME["Fare"]).pvalue
    got = answers(
        "Check if the Fare column follows a normal distribution using the Shapiro-Wilk test.\n"
        '@normality_test_result[A string that should be either "Normal" or "Not Normal"]'
    )
    assert got["normality_test_result"] == ("Normal" if p > 0.05 else "Not Normal")


def test_boolean_choices_without_quotes() -> None:
    got = answers(
        "Does Fare follow a normal distribution? Use the Shapiro-Wilk test.\n"
        "@is_normal[is_normal] where is_normal is a boolean value: True means normal, False means it is not."
    )
    assert got["is_normal"] in ("True", "False")
    assert got["is_normal"] == str(bool(stats.shapiro(FRAME["Fare"]).pvalue > 0.05))


def test_outlier_count_is_an_integer_even_with_decimals_asked() -> None:
    z = np.abs(stats.zscore(FRAME["Fare"]))
    got = answers(
        "Identify outliers in Fare using the Z-score method with a threshold of 3.\n"
        "Format: @outlier_count[count] rounded to three decimal places."
    )
    assert got["outlier_count"] == str(int((z > 3).sum()))


def test_iqr_outliers_removed_before_the_statistic() -> None:
    values = FRAME["Fare"]
    q1, q3 = values.quantile(0.25), values.quantile(0.75)
    kept = values[(values >= q1 - 1.5 * (q3 - q1)) & (values <= q3 + 1.5 * (q3 - q1))]
    got = answers(
        "Remove outliers from Fare using the IQR method, then calculate the mean.\n"
        "Format: @mean_fare[value] rounded to two decimal places."
    )
    assert got["mean_fare"] == f"{kept.mean():.2f}"


def test_missing_values_count_and_percentage() -> None:
    got = answers(
        "How many missing values are there in the Age column, and what percentage is that?\n"
        "Format: @missing_count[n] @missing_percentage[p] rounded to two decimal places."
    )
    assert got["missing_count"] == str(int(FRAME["Age"].isna().sum()))
    assert got["missing_percentage"] == f"{FRAME['Age'].isna().mean() * 100:.2f}"


@pytest.mark.parametrize(
    ("choices", "expected"),
    [
        ('"positive" or "negative"', lambda r, p: "positive" if r > 0 else "negative"),
        (
            '"strong", "moderate" or "weak"',
            lambda r, p: "strong" if abs(r) >= 0.7 else "moderate" if abs(r) >= 0.3 else "weak",
        ),
        ('"significant" or "not significant"', lambda r, p: "significant" if p < 0.05 else "not significant"),
    ],
)
def test_correlation_described_by_label(choices: str, expected: Any) -> None:
    r, p = stats.pearsonr(FRAME["SibSp"], FRAME["Parch"])
    got = answers(
        'Is there a correlation between "SibSp" and "Parch"?\n'
        f"Format: @correlation_type[type] where type is one of {choices}."
    )
    assert got["correlation_type"] == expected(r, p)


def test_short_codes_are_not_read_from_ordinary_words() -> None:
    """'in' is a word, not the state code IN: no filter may come from it."""
    plan = plan_question(
        "Calculate the mean fare of passengers in the data.\nFormat: @mean_fare[v] rounded to two decimal places.",
        summarize(FRAME),
        "en",
    )
    assert isinstance(plan, Plan) and plan.slots and all(not slot.filters for slot in plan.slots)


def test_a_placeholder_explained_by_the_format_is_not_a_value_to_choose() -> None:
    """'"r_value" is a number…' explains another slot's placeholder; the boolean slot answers true/false."""
    r, p = stats.pearsonr(FRAME["Age"].dropna(), FRAME.loc[FRAME["Age"].notna(), "Fare"])
    got = answers(
        'Is there a significant correlation between "Age" and "Fare"? Use a significance level of 0.05.\n'
        "Format: @correlation_coefficient[r_value], @p_value[p_value], @significant_correlation[significant] "
        'where "r_value" is a number between -1 and 1, rounded to two decimal places; "p_value" is a number '
        'between 0 and 1, rounded to four decimal places; "significant" is a boolean value indicating whether '
        "there is a significant correlation (true) or not (false)."
    )
    assert got["correlation_coefficient"] == f"{r:.2f}"
    assert got["p_value"] == f"{p:.4f}"
    assert got["significant_correlation"].lower() == str(bool(p < 0.05)).lower()


def test_slots_the_reading_cannot_tell_apart_are_asked_about() -> None:
    """Three per-group slots whose group the reading does not find would print one value three times."""
    plan = plan_question(
        "What is the average age of passengers by ticket tier?\n"
        "Format: @gold_average_age[v] @silver_average_age[v] @bronze_average_age[v] rounded to two decimal places.",
        summarize(FRAME),
        "en",
    )
    assert isinstance(plan, Clarification)
    assert "@gold_average_age" in plan.question and "@bronze_average_age" in plan.question
    per_class = plan_question(
        "What is the average age in each passenger class?\n"
        "Format: @class1_average_age[v] @class2_average_age[v] rounded to two decimal places.",
        summarize(FRAME),
        "en",
    )
    assert isinstance(per_class, Plan)


def test_ordinal_and_flag_words_in_slot_names_pick_their_rows() -> None:
    frame = FRAME.assign(Survived=RNG.integers(0, 2, SIZE))
    got = answers(
        "What is the average fare by class, and for those who survived and did not?\n"
        "Format: @first_class_average_fare[v] @third_class_average_fare[v] @mean_fare_survived[v] "
        "@mean_fare_did_not_survive[v] rounded to two decimal places.",
        frame,
    )
    assert got["first_class_average_fare"] == f"{frame.loc[frame['Pclass'] == 1, 'Fare'].mean():.2f}"
    assert got["third_class_average_fare"] == f"{frame.loc[frame['Pclass'] == 3, 'Fare'].mean():.2f}"
    assert got["mean_fare_survived"] == f"{frame.loc[frame['Survived'] == 1, 'Fare'].mean():.2f}"
    assert got["mean_fare_did_not_survive"] == f"{frame.loc[frame['Survived'] == 0, 'Fare'].mean():.2f}"


def test_a_column_the_slot_filters_on_is_not_the_one_it_measures() -> None:
    got = answers(
        "Test whether Fare is normally distributed in each passenger class with the Shapiro-Wilk test.\n"
        "Format: @p_value_class_1[p] @p_value_class_2[p] rounded to four decimal places."
    )
    assert got["p_value_class_1"] == f"{stats.shapiro(FRAME.loc[FRAME['Pclass'] == 1, 'Fare']).pvalue:.4f}"
    assert got["p_value_class_2"] == f"{stats.shapiro(FRAME.loc[FRAME['Pclass'] == 2, 'Fare']).pvalue:.4f}"

"""The one lexicon: the offline analyst reads every word of a concept, the EDA brain its plain words only."""

from __future__ import annotations

import numpy as np
import pandas as pd

from bunseki.brain.eda.offline.columns import goal_target, resolve
from bunseki.brain.lexicon import CONCEPTS, concepts_for
from bunseki.data.profile import profile_table

ROWS = 30
SALES = profile_table(
    pd.DataFrame(
        {
            "日付": pd.date_range("2024-01-01", periods=ROWS, freq="D"),
            "地域": ["関東", "関西", "九州"] * 10,
            "売上": np.arange(ROWS) * 10.0,
            "満足度": np.arange(ROWS) % 5 + 1.0,
        }
    )
)
TIPS = profile_table(
    pd.DataFrame(
        {
            "total_bill": np.arange(ROWS) * 1.5,
            "day": ["Sat", "Sun", "Thur"] * 10,
            "time": ["Lunch", "Dinner"] * 15,
        }
    )
)


def words_for(header: str) -> set[str]:
    return {word for concept, _ in concepts_for(header) for word in concept.words}


def test_a_concept_names_a_column_for_both_brains() -> None:
    assert {"revenue", "turnover", "売上高"} <= words_for("売上")
    assert resolve("revenue", SALES) == "売上"
    assert goal_target("what drives revenue", SALES) == "売上"
    assert resolve("turnover", SALES) is None  # a wider word: the analyst's, not the EDA brain's


def test_satisfaction_in_either_language() -> None:
    assert "satisfaction" in words_for("顧客満足度")
    assert resolve("satisfaction", SALES) == "満足度"


def test_wider_words_do_not_take_a_columns_place_in_a_goal() -> None:
    # "time" and "day" are wider words of the date concept: the column named time keeps its name
    assert resolve("time series", TIPS) == "time"
    assert resolve("day of the week", SALES) is None
    # a ledger's 金額 is its 売上 for the analyst, but "refund amount" is not this table's sales
    assert "amount" in words_for("売上金額")
    assert resolve("refund amount", SALES) is None


def test_a_plain_word_is_plain_in_one_concept_only() -> None:
    plain = [word for concept in CONCEPTS for word in concept.plain]
    assert len(plain) == len(set(plain))

"""The self-check before answering: a plan that cannot give the asked form makes the analyst ask instead."""

from __future__ import annotations

import pandas as pd

from bunseki.brain.analyst.offline import selfcheck
from bunseki.brain.analyst.offline.parse import plan_question
from bunseki.brain.analyst.offline.plan import Clarification, Plan
from bunseki.data.summary import summarize

SHOP = pd.DataFrame(
    {
        "店舗": ["東京", "大阪", "名古屋", "東京", "大阪", "福岡"],
        "売上": [120, 80, 60, 100, 90, 40],
        "数量": [3, 2, 1, 4, 2, 1],
    }
)


def test_a_percentage_asked_of_a_plain_statistic_is_asked_back() -> None:
    plain = Plan(task="stat", target="売上", stat="sum", language="ja")
    asked = selfcheck.check(plain, "売上は何％？", "ja")
    assert isinstance(asked, Clarification) and "割合" in asked.question
    # a percentage in a condition is not a percentage asked for
    assert selfcheck.check(plain, "割引が10%以上の売上の合計は？", "ja") is None
    english = selfcheck.check(plain.model_copy(update={"language": "en"}), "What percentage is revenue?", "en")
    assert isinstance(english, Clarification) and "percentage of" in english.question


def test_which_asked_of_one_number_is_asked_back_and_a_ranking_passes() -> None:
    plain = Plan(task="stat", target="売上", stat="sum", language="ja")
    assert isinstance(selfcheck.check(plain, "売上が一番多いのはどの店舗？", "ja"), Clarification)
    ranked = Plan(task="group", target="売上", stat="sum", group_by="店舗", top_n=1, language="ja")
    assert selfcheck.check(ranked, "売上が一番多いのはどの店舗？", "ja") is None


def test_n_items_asked_must_be_n_items_planned() -> None:
    assert selfcheck.asked_count("売上の上位5店舗は？") == 5
    assert selfcheck.asked_count("List the 3 largest cities") == 3
    assert selfcheck.asked_count("What is the top store?") is None
    # the planner's own reading of N: kanji numbers and "多い順に N つ" count too
    assert selfcheck.asked_count("売上の上位三店舗は？") == 3
    assert selfcheck.asked_count("売上が多い店舗を2つ教えて") == 2
    three = Plan(task="top", target="売上", stat="sum", group_by="店舗", top_n=3, language="en")
    asked = selfcheck.check(three, "Show the top 5 stores by sales", "en")
    assert isinstance(asked, Clarification) and "5" in asked.question
    assert selfcheck.check(three, "Show the top 3 stores by sales", "en") is None


def test_everyday_questions_over_a_table_pass_the_check() -> None:
    info = summarize(SHOP)
    for question in ("東京店の売上は全体の何％？", "売上が一番多い店舗はどこ？", "売上の上位3店舗を教えて"):
        planned = plan_question(question, info, "ja")
        assert isinstance(planned, Plan), (question, planned)
        assert selfcheck.check(planned, question, "ja") is None, question

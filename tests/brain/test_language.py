"""Replies in the person's language: Japanese and English, and English with a note for the rest."""

from __future__ import annotations

import pandas as pd
import pytest

from bunseki.brain.analyst.contract import AnalystView
from bunseki.brain.analyst.offline import OfflineAnalystBrain
from bunseki.brain.analyst.prompts import reason_messages
from bunseki.brain.language import UNDERSTOOD, detect_language, foreign_language
from bunseki.data.summary import summarize

DATA = summarize(pd.DataFrame({"region": ["East", "West", "East"], "sales": [1.0, 2.0, 3.0], "units": [1, 2, 3]}))


@pytest.mark.parametrize(
    ("text", "language", "foreign"),
    [
        ("関東の売上合計は？", "ja", None),
        ("地域別売上合計", "ja", None),  # kanji only, and Japanese
        ("What is the average sales by region?", "en", None),
        ("每个地区的平均销售额是多少？", "en", "Chinese"),
        ("每個地區的平均銷售額是多少？", "en", "Chinese"),  # traditional characters
        ("销售额的总和", "en", "Chinese"),
        ("평균 매출은 얼마입니까?", "en", "Korean"),
        ("Средняя выручка по регионам?", "en", "Russian"),
        ("What is the average of выручка?", "en", None),  # a Cyrillic column name in English
        ("Quelle est la moyenne des ventes par région ?", "en", "another language"),
        ("¿Cuál es el promedio de ventas por región?", "en", "another language"),
        ("average sales for la region", "en", None),
    ],
)
def test_languages_are_told_apart(text: str, language: str, foreign: str | None) -> None:
    assert detect_language(text) == language
    assert foreign_language(text) == foreign


def test_a_chinese_question_gets_its_follow_up_in_english_with_the_languages_understood() -> None:
    question = "每个地区的平均销售额是多少？"
    decision = OfflineAnalystBrain().decide(
        AnalystView(question=question, language=detect_language(question), data=DATA)
    )
    assert decision.next_action == "ask"
    text = decision.question or ""
    assert text.startswith(UNDERSTOOD)
    assert "(ja)" in text and "(en)" in text
    body = text.removeprefix(UNDERSTOOD)
    assert not any("\u3040" <= char <= "\u30ff" for char in body)  # no Japanese
    assert "sales" in body and "units" in body  # the candidates are listed
    assert "no column called" not in body  # Chinese words are not read as column names


def test_a_report_to_another_language_starts_with_the_line() -> None:
    question = "Quelle est la moyenne des ventes? What is the average sales?"
    report = OfflineAnalystBrain().write_report(AnalystView(question=question, language="en", data=DATA))
    assert report.conclusion.startswith(UNDERSTOOD)
    assert report.language == "en"


def test_japanese_and_english_get_no_line() -> None:
    for question in ("売上金額の合計は？", "What is the total sales?"):
        view = AnalystView(question=question, language=detect_language(question), data=DATA)
        decision = OfflineAnalystBrain().decide(view)
        assert UNDERSTOOD not in (decision.question or "") + (decision.rationale or "")


def test_an_llm_is_asked_to_answer_in_the_question_language() -> None:
    chinese = reason_messages(AnalystView(question="每个地区的平均销售额是多少？", language="en", data=DATA))
    assert "in Chinese" in str(chinese[0].content)
    french = reason_messages(AnalystView(question="Quelle est la moyenne des ventes par région ?", data=DATA))
    assert "in the language of their question" in str(french[0].content)
    english = reason_messages(AnalystView(question="What is the total?", language="en", data=DATA))
    assert "in English" in str(english[0].content)

"""The chat page's streamed answer: the text since the last reset, withdrawn once the turn is over."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from bunseki.domain import Event, streamed_answer

EVENTS: list[Event] = [
    {"event": "node_started", "node": "report", "loop": 1},
    {"event": "answer_delta", "text": "途中で"},
    {"event": "answer_delta", "text": "切れた答え"},
    {"event": "answer_reset"},
    {"event": "answer_delta", "text": "関東が"},
    {"event": "answer_delta", "text": "最大です。"},
    {"event": "report", "title": "売上", "status": "finalized"},
]


def test_the_streamed_text_is_what_came_after_the_last_reset() -> None:
    assert streamed_answer(EVENTS) == "関東が最大です。"
    assert streamed_answer(EVENTS[:3]) == "途中で切れた答え"
    assert streamed_answer(EVENTS[:4]) == "" and streamed_answer([]) == ""


def follow_a_finished_turn() -> None:
    from bunseki.ui import turns
    from bunseki.ui.texts import Texts
    from tests.ui.test_streamed_answer_ui import EVENTS

    turns.follow(turns.PendingTurn("session", "売上は？", events=list(EVENTS)), Texts("ja"))


def test_the_page_leaves_no_streamed_text_behind_once_the_turn_is_over() -> None:
    app = AppTest.from_function(follow_a_finished_turn, default_timeout=30).run()
    assert not app.exception
    shown = [element.value for element in app.markdown]
    assert "**レポートを書いています…**" in shown  # the progress was drawn
    assert not any("関東が最大です。" in value or "切れた答え" in value for value in shown)

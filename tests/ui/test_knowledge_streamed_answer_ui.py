"""The knowledge page shows the answer growing as a streaming model writes it, and once the
question is answered only the answer kept (drawn from the service's result), never the stream."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from tests.agents.test_knowledge_streaming import DRAFT, QUESTION
from tests.ui.test_streamed_answer_ui import EVENTS

TIMEOUT_S = 60  # a ceiling for one script run, never a measurement


def follow_some_events(count: int) -> None:
    import streamlit as st

    from bunseki.ui.knowledge import follow_answer
    from tests.ui.test_streamed_answer_ui import EVENTS

    on_event = follow_answer(st.empty())
    for event in EVENTS[:count]:
        on_event(event)


@pytest.mark.parametrize(
    ("count", "shown"), [(2, "途中で"), (3, "途中で切れた答え"), (5, "関東が"), (len(EVENTS), "関東が最大です。")]
)
def test_the_answer_grows_in_its_place_and_starts_over_after_a_reset(count: int, shown: str) -> None:
    app = AppTest.from_function(follow_some_events, args=(count,), default_timeout=TIMEOUT_S).run()
    assert not app.exception, app.exception
    assert [element.value for element in app.markdown] == [shown]  # one place, redrawn


def ask_a_streaming_model() -> None:
    from bunseki.brain.knowledge.llm import LLMKnowledgeBrain
    from bunseki.service.knowledge import KnowledgeService
    from bunseki.settings import Settings
    from bunseki.ui import knowledge
    from bunseki.ui.texts import Texts
    from tests.agents.test_knowledge_graph import FakeKnowledgeBase
    from tests.agents.test_knowledge_streaming import DRAFT, QUESTION, reflection_model

    model = reflection_model(f"Thought: 補足します。\nFinal Answer: {DRAFT} サーバーは 48 台 必要です。")
    brains = {"openai:fake": LLMKnowledgeBrain(model, name="openai:fake")}
    with KnowledgeService(Settings(), knowledge_base=FakeKnowledgeBase(), brains=brains) as service:
        knowledge._ask(service, QUESTION, ["manuals"], "openai:fake", Texts("ja"))
    assert model.streamed == [3]  # the page followed the question, so the Reflection streamed


def test_once_answered_the_page_shows_the_answer_kept_and_not_what_was_streamed(ui_workspace: Path) -> None:
    app = AppTest.from_function(ask_a_streaming_model, default_timeout=TIMEOUT_S).run()
    assert not app.exception, app.exception
    user, assistant = app.chat_message
    assert user.markdown[0].value == QUESTION
    shown = [str(element.value) for element in assistant.markdown]
    assert shown.count(DRAFT) == 1  # the draft, which finish kept, once: the stream's copy is withdrawn
    assert not any("48" in text for text in shown)  # the Reflection's streamed text is gone

"""Under each answer, a small caption says what its turn's model calls cost, or that none ran."""

from __future__ import annotations

from pathlib import Path

import pytest

from bunseki.brain.base import Brain
from bunseki.brain.llm import LLMBrain
from bunseki.brain.offline import OfflineBrain
from bunseki.samples import SALES_CSV
from bunseki.service import AnalysisService, TurnUsage
from bunseki.settings import Settings
from bunseki.ui.render import usage_caption
from bunseki.ui.texts import Texts
from tests.fakes.chat import scripted
from tests.fakes.usage import MODEL, PRICES, QUESTION, turn_replies
from tests.ui.test_app import open_app

USAGE = TurnUsage(model=MODEL, calls=2, prompt_tokens=1234, completion_tokens=45, seconds=3.14, cost=0.0004)


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("en", "1,234 + 45 tokens · 2 calls · 3.1 s · $0.0004"),
        ("ja", "1,234 + 45 トークン · 2 回の呼び出し · 3.1 秒 · $0.0004"),
    ],
)
def test_the_caption_in_both_languages(language: str, expected: str) -> None:
    texts = Texts("en" if language == "en" else "ja")
    assert usage_caption(USAGE, texts) == expected
    assert usage_caption(USAGE.model_copy(update={"cost": None}), texts) == expected.rsplit(" · ", 1)[0]


def test_offline_and_unknown() -> None:
    assert usage_caption(TurnUsage(model="offline"), Texts("en")) == "offline (no model ran)"
    assert usage_caption(None, Texts("ja")) is None


def test_each_answer_of_a_resumed_session_has_its_caption(ui_workspace: Path) -> None:
    model = scripted(*turn_replies())

    def brains(spec: str) -> Brain:
        return OfflineBrain() if spec == "offline" else LLMBrain(model, name=MODEL)

    with AnalysisService(Settings().model_copy(update={"llm_prices": PRICES}), brains=brains) as earlier:
        record = earlier.create_session(SALES_CSV, model=MODEL)
        earlier.run_turn(record.id, QUESTION)
        earlier.set_model(record.id, "offline")
        earlier.run_turn(record.id, "地域別の売上合計は？")

    app = open_app("en-US")
    app.selectbox(key="resume_choice").set_value(record.id).run()
    app.button(key="resume").click().run()
    assert not app.exception
    first, second = (message for message in app.chat_message if message.avatar == "assistant")
    assert "5,500 + 160 tokens · 5 calls" in " ".join(str(caption.value) for caption in first.caption)
    assert "$0.0009" in " ".join(str(caption.value) for caption in first.caption)
    assert "offline (no model ran)" in [str(caption.value) for caption in second.caption]

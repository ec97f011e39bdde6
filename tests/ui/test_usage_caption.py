"""Under each answer, a small caption says what its turn's model calls cost, or that none ran."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from bunseki.brain.analyst.contract import AnalystBrain
from bunseki.brain.analyst.llm import LLMAnalystBrain
from bunseki.brain.analyst.offline import OfflineAnalystBrain
from bunseki.brain.eda.llm import LLMEdaBrain
from bunseki.domain import TurnUsage, format_cost
from bunseki.samples import SALES_CSV
from bunseki.service import AnalysisService
from bunseki.service.eda import EdaService
from bunseki.service.investigation_runs import InvestigationRuns
from bunseki.settings import Settings
from bunseki.ui.render import usage_caption
from bunseki.ui.texts import Texts
from tests.eda.conftest import SALES
from tests.eda.test_llm_run import PLAN
from tests.eda.test_run_usage import TOKENS as EDA_TOKENS
from tests.fakes.chat import scripted, tool_reply
from tests.fakes.usage import MODEL, PRICES, QUESTION, counted, turn_replies
from tests.ui.test_app import open_app
from tests.ui.test_eda_page import click, open_eda
from tests.ui.test_investigations_page import open_page as open_investigations
from tests.ui.test_investigations_page import sample_zip
from tests.ui.test_knowledge_page import add_documents, warm_embeddings, workspace  # noqa: F401  (fixtures)
from tests.ui.test_knowledge_page import open_page as open_knowledge

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

    def brains(spec: str) -> AnalystBrain:
        return OfflineAnalystBrain() if spec == "offline" else LLMAnalystBrain(model, name=MODEL)

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


def test_an_eda_run_shows_what_its_model_calls_cost(ui_workspace: Path, tmp_path: Path) -> None:
    data = tmp_path / "売上.csv"
    data.write_bytes(SALES.encode("cp932"))
    brain = LLMEdaBrain(scripted(counted(tool_reply(PLAN), *EDA_TOKENS[0])), name=MODEL)
    with EdaService(Settings().model_copy(update={"llm_prices": PRICES}), brains=lambda spec: brain) as service:
        service.start(data, model=MODEL)  # as `bunseki eda` would, in another process
    app = open_eda("en-US")
    click(app, "eda-open")
    captions = [str(caption.value) for caption in app.caption]
    prompt, completion = EDA_TOKENS[0]
    cost = format_cost((prompt * 0.15 + completion * 0.6) / 1_000_000)
    [line] = [caption for caption in captions if caption.startswith(f"{prompt:,} + {completion} tokens · 1 calls · ")]
    assert line.endswith(f" s · {cost}")  # the seconds between: the fake's, whatever they were


def test_an_offline_investigation_says_offline(ui_workspace: Path) -> None:
    with InvestigationRuns(Settings()) as runs:  # as the API would, in another process
        started = runs.start_from_upload("case.zip", io.BytesIO(sample_zip()))
        runs.wait(started.investigation_id)
    app = open_investigations("en-US")
    app.button(key="inv-open").click().run()
    assert not app.exception, app.exception
    assert "offline (no model ran)" in [str(caption.value) for caption in app.caption]


def test_an_offline_knowledge_answer_says_offline(workspace: Path) -> None:  # noqa: F811
    app = add_documents(open_knowledge("en-US"))
    app.chat_input[0].set_value("パスワードを忘れたときはどうすればいいですか").run()
    assert not app.exception, app.exception
    _, assistant = app.chat_message
    assert "offline (no model ran)" in [str(caption.value) for caption in assistant.caption]

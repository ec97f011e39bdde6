"""A report's conclusion streamed from a real server (llama.cpp serving SmolLM2-135M).

The structured call the LLM brain makes for a report (`bunseki.brain.structured.ask` with the
conclusion streamed), inside the `streaming_answer` block the analyst's report node opens; the
pieces the server streams must arrive before the call ends. The prompt is a short one: the
report prompt with a data summary takes minutes to read on two busy cores, and the service and
API tests follow the same events through a whole turn from a scripted streaming model. The model
is far too small to be right, so only the stream's shape is asserted.
"""

from __future__ import annotations

import pytest
from langchain_core.messages import HumanMessage, SystemMessage

from bunseki.brain.streaming import streaming_answer
from bunseki.brain.structured import ask
from bunseki.domain import Event, ReportOutput, streamed_answer
from bunseki.errors import ModelError
from bunseki.llm import create_chat_model, endpoint_of
from bunseki.settings import Settings
from tests.real_model.test_real_model import LIMITS

pytestmark = pytest.mark.real_model

PROMPT = [
    SystemMessage("You write short data analysis reports as JSON."),
    HumanMessage("Question: what is the sales total? Executed output: total 390. Write the report."),
]


@pytest.fixture
def real(settings: Settings, real_model_url: str) -> Settings:
    # The conclusion comes second in the schema, some 30 tokens in: a cap that stops soon after.
    limits = {**LIMITS, "llm_max_tokens": 100, "llm_timeout_s": 120, "llm_max_retries": 0}
    return settings.model_copy(update={"llm_base_url": real_model_url, **limits})


def test_the_conclusion_arrives_in_pieces_before_the_report(real: Settings) -> None:
    model = create_chat_model("openai:local", real)
    events: list[Event] = []
    report: ReportOutput | None = None
    with streaming_answer(events.append):
        try:
            report = ask(model, ReportOutput, PROMPT, name="local", endpoint=endpoint_of(model), stream="conclusion")
        except ModelError:  # a report the tiny model could not finish: its text was withdrawn
            assert events[-1] == {"event": "answer_reset"}
    assert [event["event"] for event in events].count("answer_delta") >= 2, events
    if report is not None:
        assert streamed_answer(events) == report.conclusion

"""The report's conclusion streamed from a real server (llama.cpp serving SmolLM2-135M).

The LLM brain writes one report from a small view (a question and one execution), inside the
same `streaming_answer` block the analyst's report node opens; the pieces the server streams
must arrive before the call ends. The model is far too small to be right, so only the stream's
shape is asserted. A whole session turn is not used: its prompt (the data summary) takes minutes
to read on two busy cores, and the service and API tests follow the same events from a
scripted streaming model.
"""

from __future__ import annotations

import pytest

from bunseki.brain.llm import LLMBrain
from bunseki.brain.models import AnalystView, ExecutionRecord
from bunseki.brain.streaming import AnswerEvent, streaming_answer
from bunseki.errors import ModelError
from bunseki.llm import create_chat_model
from bunseki.report.models import ReportOutput
from bunseki.settings import Settings
from bunseki.ui.turns import streamed_answer
from tests.real_model.test_real_model import LIMITS

pytestmark = pytest.mark.real_model

VIEW = AnalystView(
    question="売上の合計は？",
    executions=[
        ExecutionRecord(
            instruction="合計を出す", code="print('合計', df['売上'].sum())", success=True, stdout="合計 390"
        )
    ],
)


@pytest.fixture
def real(settings: Settings, real_model_url: str) -> Settings:
    # The conclusion comes second in the schema, some 30 tokens in: a cap that stops soon after,
    # and time for a prompt read slowly on two busy cores. One attempt is enough to watch.
    limits = {**LIMITS, "llm_max_tokens": 100, "llm_timeout_s": 180, "llm_max_retries": 0}
    return settings.model_copy(update={"llm_base_url": real_model_url, **limits})


def test_the_conclusion_arrives_in_pieces_before_the_report(real: Settings) -> None:
    brain = LLMBrain(create_chat_model("openai:local", real), name="openai:local")
    events: list[AnswerEvent] = []
    report: ReportOutput | None = None
    with streaming_answer(events.append):
        try:
            report = brain.write_report(VIEW)
        except ModelError:  # a report the tiny model could not finish: its text was withdrawn
            assert events[-1] == {"event": "answer_reset"}
    assert [event["event"] for event in events].count("answer_delta") >= 2, events
    if report is not None:
        assert streamed_answer(events) == report.conclusion

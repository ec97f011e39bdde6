"""A streamed answer that breaks off, through a session turn against the local fake OpenAI server.

The report streams (`answer_delta`); when the stream ends early or the connection is reset
mid-answer, the streamed text is withdrawn (`answer_reset`) and the model asked again; when that
fails too, the turn ends with the plain fallback report, never with the half answer.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bunseki.brain.analyst.contract import ReasonOutput
from bunseki.domain import Event, ReportOutput, ReportSection
from bunseki.samples import SALES_CSV
from bunseki.service import AnalysisService, TurnResult
from bunseki.settings import Settings
from tests.fakes.openai_server import FakeOpenAIServer, fake_openai_server
from tests.service.test_streamed_answer import deltas_after_last_reset

FINALIZE = ReasonOutput(next_action="finalize", rationale="答えが出た")
REPORT = ReportOutput(
    title="売上の概要",
    conclusion="売上は関東が最も大きく、近畿と九州が続きます。地域による差がはっきり出ています。",
    sections=[ReportSection(section_type="text", content="地域ごとの売上を比べました。")],
)
HALF = REPORT.conclusion[:10]


@pytest.fixture
def server() -> Iterator[FakeOpenAIServer]:
    with fake_openai_server() as running:
        yield running


def turn(settings: Settings, server: FakeOpenAIServer) -> tuple[TurnResult, list[Event]]:
    """One turn whose decision is to finalize at once, then the report as the server is scripted."""
    events: list[Event] = []
    changes = {"llm_base_url": server.url, "llm_timeout_s": 5, "llm_max_retries": 1}
    with AnalysisService(settings.model_copy(update=changes)) as service:
        session = service.create_session(SALES_CSV, model="openai:test-model")
        result = service.run_turn(session.id, "地域ごとの売上の傾向は？", on_event=events.append)
    assert server.unused_replies == 0
    return result, [event for event in events if event["event"].startswith("answer_")]


@pytest.mark.parametrize("reset", [False, True], ids=["stream ends early", "connection reset mid-answer"])
def test_a_broken_stream_is_withdrawn_and_asked_again(
    settings: Settings, server: FakeOpenAIServer, reset: bool
) -> None:
    server.reply_json(FINALIZE)
    server.break_stream(REPORT, reset=reset)
    server.reply_json(REPORT)
    result, events = turn(settings, server)
    assert result.status == "finalized" and result.answer == REPORT.conclusion
    kinds = [event["event"] for event in events]
    assert kinds.count("answer_reset") == 1 and kinds.index("answer_reset") > 0  # some text came, then withdrawn
    assert "".join(deltas_after_last_reset(events)) == result.answer
    assert len(server.requests) == 3 and all(request.get("stream") for request in server.requests[1:])


@pytest.mark.parametrize("reset", [False, True], ids=["stream ends early", "connection reset mid-answer"])
def test_a_stream_that_breaks_every_time_ends_in_the_plain_fallback(
    settings: Settings, server: FakeOpenAIServer, reset: bool
) -> None:
    server.reply_json(FINALIZE)
    for _ in range(2):
        server.break_stream(REPORT, reset=reset)
    result, events = turn(settings, server)
    assert result.status == "finalized" and result.answer is not None
    assert result.answer.startswith("レポートを完成できませんでした") and HALF not in result.answer
    assert "Traceback" not in result.answer
    assert (
        "broke off while the answer was coming" if reset else "did not return a usable ReportOutput"
    ) in result.answer
    assert events[-1] == {"event": "answer_reset"} and deltas_after_last_reset(events) == []
    assert len(server.requests) == 3

"""A session turn whose brain streams: the answer's deltas reach the turn's events in order."""

from __future__ import annotations

from typing import Any

from bunseki.brain.analyst.contract import CodeGenOutput, ReasonOutput
from bunseki.brain.analyst.llm import LLMAnalystBrain
from bunseki.domain import Event, ReportOutput, ReportSection
from bunseki.samples import SALES_CSV
from tests.conftest import ServiceFactory
from tests.fakes.chat import scripted, tool_reply

ACT = ReasonOutput(next_action="act", instruction="売上金額の合計を出す", rationale="計算が必要")
CODE = CodeGenOutput(code="print('合計', int(df['売上金額'].sum()))")
FINALIZE = ReasonOutput(next_action="finalize", rationale="答えが出た")
REPORT = ReportOutput(
    title="売上の概要",
    conclusion="売上金額の合計を計算し、結果を実行出力に示しました。地域による違いも読み取れます。",
    sections=[ReportSection(section_type="text", content="合計は実行結果のとおりです。")],
)


def streaming_brain() -> LLMAnalystBrain:
    replies = [tool_reply(answer) for answer in (ACT, CODE, FINALIZE, REPORT)]
    return LLMAnalystBrain(scripted(*replies), name="fake")


def deltas_after_last_reset(events: list[Event]) -> list[str]:
    kinds = [event["event"] for event in events]
    start = len(kinds) - kinds[::-1].index("answer_reset") if "answer_reset" in kinds else 0
    return [event["text"] for event in events[start:] if event["event"] == "answer_delta"]


def test_the_answer_streams_between_the_report_node_and_the_report(open_service: ServiceFactory) -> None:
    service = open_service(brain=streaming_brain())
    session = service.create_session(SALES_CSV)
    events: list[dict[str, Any]] = []
    result = service.run_turn(session.id, "売上金額の合計は？", on_event=events.append)
    assert result.status == "finalized" and result.answer == REPORT.conclusion
    kinds = [event["event"] for event in events]
    report_started = next(i for i, e in enumerate(events) if e["event"] == "node_started" and e["node"] == "report")
    deltas = [i for i, kind in enumerate(kinds) if kind == "answer_delta"]
    assert len(deltas) >= 3 and report_started < deltas[0] and deltas[-1] < kinds.index("report")
    assert "answer_reset" not in kinds
    assert "".join(deltas_after_last_reset(events)) == result.answer


def test_a_turn_without_listeners_gives_the_same_answer(open_service: ServiceFactory) -> None:
    service = open_service(brain=streaming_brain())
    session = service.create_session(SALES_CSV)
    result = service.run_turn(session.id, "売上金額の合計は？")
    assert result.status == "finalized" and result.answer == REPORT.conclusion

"""The answer's text streamed as the model writes it: deltas in order, resets for discarded answers."""

from __future__ import annotations

import json

import pytest
from langchain_core.messages import AIMessageChunk, HumanMessage
from langchain_core.outputs import ChatGenerationChunk

from bunseki.brain.streaming import AnswerStream, current_sink, streaming_answer
from bunseki.brain.structured import ask
from bunseki.domain import Event, ReportOutput, ReportSection
from bunseki.errors import ModelOutputError
from tests.fakes.chat import scripted, tool_call, tool_reply

REPORT = ReportOutput(
    title="地域別売上",
    conclusion="関東の売上が最も大きく、近畿と九州が続きます。",
    sections=[ReportSection(section_type="text", content="地域ごとの合計を比べました。")],
)


def joined_after_last_reset(events: list[Event]) -> str:
    resets = [i for i, event in enumerate(events) if event["event"] == "answer_reset"]
    start = resets[-1] + 1 if resets else 0
    return "".join(event["text"] for event in events[start:] if event["event"] == "answer_delta")


def feed(stream: AnswerStream, raw: str, size: int) -> None:
    for start in range(0, len(raw), size):
        piece = raw[start : start + size]
        stream.on_llm_new_token(piece, chunk=ChatGenerationChunk(message=AIMessageChunk(content=piece)))


@pytest.mark.parametrize("size", [1, 3, 17])
def test_the_field_text_arrives_in_pieces_that_join_to_the_stripped_answer(size: int) -> None:
    value = '  改行\nと引用符 "x" と \\ と é を含む答え。  '
    raw = json.dumps({"title": "t", "conclusion": value, "sections": []}, ensure_ascii=size != 3)
    events: list[Event] = []
    feed(AnswerStream("conclusion", events.append), raw, size)
    texts = [event["text"] for event in events]
    assert all(event["event"] == "answer_delta" for event in events)
    assert "".join(texts) == value.strip()
    assert len(texts) > 1 and all(texts)


def test_tool_call_arguments_are_followed_like_content() -> None:
    events: list[Event] = []
    stream = AnswerStream("conclusion", events.append)
    for piece in ['{"concl', 'usion": "二つ', "の部分", '"}']:
        chunk = AIMessageChunk(content="", tool_call_chunks=[{"name": None, "args": piece, "id": None, "index": 0}])
        stream.on_llm_new_token("", chunk=ChatGenerationChunk(message=chunk))
    assert [event["text"] for event in events] == ["二つ", "の部分"]


def test_settle_replaces_what_was_streamed_when_the_kept_answer_differs() -> None:
    events: list[Event] = []
    stream = AnswerStream("conclusion", events.append)
    feed(stream, '{"conclusion": "途中ま', 4)
    stream.settle("別の答え。")
    assert events[-2:] == [{"event": "answer_reset"}, {"event": "answer_delta", "text": "別の答え。"}]
    assert joined_after_last_reset(events) == "別の答え。"


def test_a_streamed_report_reaches_the_sink_in_order() -> None:
    model = scripted(tool_reply(REPORT))
    events: list[Event] = []
    with streaming_answer(events.append):
        report = ask(model, ReportOutput, [HumanMessage("売上は？")], name="fake", endpoint=None, stream="conclusion")
    assert report.conclusion == REPORT.conclusion
    deltas = [event["text"] for event in events if event["event"] == "answer_delta"]
    assert len(deltas) >= 3 and "".join(deltas) == REPORT.conclusion
    assert current_sink() is None  # the block restored the state before it


def test_a_discarded_answer_is_reset_before_the_corrected_one_streams() -> None:
    wrong = tool_call("ReportOutput", {"title": "x", "conclusion": "使えない答えです。", "sections": []})
    model = scripted(wrong, tool_reply(REPORT))
    events: list[Event] = []
    with streaming_answer(events.append):
        report = ask(model, ReportOutput, [HumanMessage("売上は？")], name="fake", endpoint=None, stream="conclusion")
    kinds = [event["event"] for event in events]
    first_reset = kinds.index("answer_reset")
    assert "".join(event["text"] for event in events[:first_reset]) == "使えない答えです。"
    assert joined_after_last_reset(events) == report.conclusion == REPORT.conclusion


def test_an_answer_that_fails_twice_ends_reset() -> None:
    wrong = tool_call("ReportOutput", {"title": "x", "conclusion": "使えない答えです。", "sections": []})
    events: list[Event] = []
    with streaming_answer(events.append), pytest.raises(ModelOutputError):
        ask(scripted(wrong, wrong), ReportOutput, [HumanMessage("?")], name="fake", endpoint=None, stream="conclusion")
    assert events and events[-1] == {"event": "answer_reset"}


def test_without_a_listener_the_model_is_not_asked_to_stream() -> None:
    quiet, heard = scripted(tool_reply(REPORT)), scripted(tool_reply(REPORT))
    ask(quiet, ReportOutput, [HumanMessage("売上は？")], name="fake", endpoint=None, stream="conclusion")
    with streaming_answer(lambda event: None):
        ask(heard, ReportOutput, [HumanMessage("売上は？")], name="fake", endpoint=None, stream="conclusion")
    assert (quiet.streamed, heard.streamed) == ([], [1])

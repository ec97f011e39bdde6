"""What a real server does wrong, each turned into a clean outcome of a session's turn.

A local OpenAI-compatible server (`tests.fakes.openai_server`) plays each fault in front of the
real openai client and langchain-openai; one session takes all of them in turn, so it is also
shown to stay usable after each. Outcomes: a bounded retry where it can help, the problem sent
back to the model where the model can fix it, else `error` with a plain message that never holds
a traceback or the model's own text.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

import pytest

from bunseki.brain.analyst.contract import ReasonOutput
from bunseki.brain.knowledge.contract import SEARCH_TOOL
from bunseki.domain import CollectionInfo, SearchHit
from bunseki.rag.models import SearchMode
from bunseki.samples import SALES_CSV
from bunseki.service import AnalysisService
from bunseki.service.knowledge import Answer, KnowledgeService
from bunseki.settings import Settings
from tests.fakes.openai_server import FakeOpenAIServer, fake_openai_server

ASK = ReasonOutput(next_action="ask", question="どの期間の売上ですか？", rationale="期間が不明")
RETRIES = 1


@dataclass(frozen=True)
class Fault:
    name: str
    play: Callable[[FakeOpenAIServer], None]
    status: str
    says: str  # in the error (status error) or the question (status asked)
    requests: int  # what reached the server: retries are bounded


def twice(play: Callable[[FakeOpenAIServer], None]) -> Callable[[FakeOpenAIServer], None]:
    """The fault for every attempt the brain makes (two) of every try the client makes."""

    def both(server: FakeOpenAIServer) -> None:
        for _ in range(2):
            play(server)

    return both


ATTEMPTS = RETRIES + 1
FAULTS = [
    Fault("429 then an answer", lambda s: (s.reply_error(429, retry_after="0"), s.reply_json(ASK)), "asked", "期間", 2),
    Fault("429 every time", lambda s: s.reply_error(429, times=ATTEMPTS), "error", "rate limit", ATTEMPTS),
    Fault("500", lambda s: s.reply_error(500, times=ATTEMPTS), "error", "failed (500)", ATTEMPTS),
    Fault("502", lambda s: s.reply_error(502, times=ATTEMPTS), "error", "failed (502)", ATTEMPTS),
    Fault("503 then an answer", lambda s: (s.reply_error(503), s.reply_json(ASK)), "asked", "期間", 2),
    Fault("connection reset", lambda s: s.drop_connection(times=ATTEMPTS), "error", "could not connect", ATTEMPTS),
    Fault(
        "stall past the timeout",
        lambda s: [s.reply_json(ASK, delay_s=5) for _ in range(ATTEMPTS)],
        "error",
        "did not answer within",
        ATTEMPTS,
    ),
    Fault("truncated body", lambda s: s.cut_short(times=ATTEMPTS), "error", "could not connect", ATTEMPTS),
    Fault(
        "invalid JSON",
        twice(lambda s: s.reply_content('{"next_action": "ask", ')),
        "error",
        "did not return a usable ReasonOutput",
        2,
    ),
    Fault("invalid JSON, then corrected", lambda s: (s.reply_content("{oops"), s.reply_json(ASK)), "asked", "期間", 2),
    Fault("wrong schema", twice(lambda s: s.reply_json({"answer": 42})), "error", "did not fit the schema", 2),
    Fault(
        "a decision's name as the question",
        twice(lambda s: s.reply_json({"next_action": "ask", "question": "ask_action", "rationale": "ask_action"})),
        "error",
        "asking needs",
        2,
    ),
    Fault("empty message", twice(lambda s: s.reply_content("")), "error", "did not return a usable", 2),
    Fault(
        "endless answer",
        lambda s: s.reply_content('{"rationale": "aaaa', finish_reason="length"),
        "error",
        "cut off",
        1,
    ),
]


@pytest.fixture
def server() -> Iterator[FakeOpenAIServer]:
    with fake_openai_server() as running:
        yield running


def test_every_fault_ends_cleanly_and_the_session_goes_on(settings: Settings, server: FakeOpenAIServer) -> None:
    changes = {
        "llm_base_url": server.url,
        "llm_timeout_s": 0.5,
        "llm_max_retries": RETRIES,
        "turn_deadline_s": 30,
    }
    problems: list[str] = []
    with AnalysisService(settings.model_copy(update=changes)) as service:
        session = service.create_session(SALES_CSV, model="openai:test-model")
        for fault in FAULTS:
            before = len(server.requests)
            fault.play(server)
            result = service.run_turn(session.id, "売上を教えて")
            shown = (result.error if result.status == "error" else result.question) or ""
            sent = len(server.requests) - before
            if (result.status, sent) != (fault.status, fault.requests) or fault.says not in shown:
                problems.append(f"{fault.name}: {result.status}, {sent} requests, {shown!r}")
            if "Traceback" in shown or "ask_action" in shown or "aaaa" in shown:
                problems.append(f"{fault.name}: the message shows more than a plain problem: {shown!r}")
            assert server.unused_replies == 0, fault.name
        statuses = [exchange.status for exchange in service.conversation(session.id)]
    assert problems == []
    assert statuses == [fault.status for fault in FAULTS]


def test_a_made_up_column_goes_back_to_the_model_with_the_real_ones(
    settings: Settings, server: FakeOpenAIServer
) -> None:
    arguments = '{"column": "存在しない列", "operator": "eq", "value": "関東"}'
    server.reply_json(ReasonOutput(next_action="act", tool="filter_data", tool_arguments=arguments, rationale="絞る"))
    server.reply_json(ASK)
    with AnalysisService(settings.model_copy(update={"llm_base_url": server.url})) as service:
        session = service.create_session(SALES_CSV, model="openai:test-model")
        result = service.run_turn(session.id, "関東だけにして")
    assert result.status == "asked"
    [failed] = result.executions
    assert not failed.success and "存在しない列" in (failed.error or "")
    second = json.dumps(server.requests[1]["messages"], ensure_ascii=False)
    assert "地域" in second and "存在しない列" in second  # the error, naming real columns, was shown


class OnePassage:
    """A knowledge base whose one passage answers every query."""

    def search(
        self, query: str, collections: Sequence[str], *, top_k: int = 5, mode: SearchMode = "hybrid"
    ) -> list[SearchHit]:
        text = "サーバーは 6333 番ポートで待ち受けます。"
        return [
            SearchHit(
                collection="manuals",
                source="setup.md",
                title="導入",
                heading="ポート",
                chunk_id="setup.md#1",
                score=0.9,
                text=text,
            )
        ]

    def collections(self) -> list[CollectionInfo]:
        return [CollectionInfo(name="manuals", documents=1, chunks=1, embedding_model="fake", location=":memory:")]


def ask_knowledge(settings: Settings, server: FakeOpenAIServer) -> Answer:
    with KnowledgeService(settings.model_copy(update={"llm_base_url": server.url}), knowledge_base=OnePassage()) as kb:
        return kb.ask("ポートは？", ["manuals"], "openai:test-model")


def test_an_unknown_tool_is_answered_with_the_tools_that_exist(settings: Settings, server: FakeOpenAIServer) -> None:
    server.reply_tool_call("search_the_web", {"query": "port"})
    server.reply_tool_call(SEARCH_TOOL, {"query": "ポート"})
    server.reply_content("6333 番です [1]。")
    server.reply_content("Thought: 根拠あり\nFinal Answer: 6333 番です [1]。")
    answer = ask_knowledge(settings, server)
    assert answer.status == "answered" and "6333" in answer.answer
    observation = server.requests[1]["messages"][-1]
    assert observation["role"] == "tool" and "there is no tool 'search_the_web'" in observation["content"]


def test_unreadable_tool_arguments_are_sent_back(settings: Settings, server: FakeOpenAIServer) -> None:
    server.reply_tool_call(SEARCH_TOOL, '{"query": "ポート"')  # not JSON
    server.reply_tool_call(SEARCH_TOOL, {"query": "ポート"})
    server.reply_content("6333 番です [1]。")
    server.reply_content("Thought: 根拠あり\nFinal Answer: 6333 番です [1]。")
    answer = ask_knowledge(settings, server)
    assert answer.status == "answered"
    assert "could not be read" in server.requests[1]["messages"][-1]["content"]


def test_unreadable_tool_arguments_twice_are_a_plain_error(settings: Settings, server: FakeOpenAIServer) -> None:
    for _ in range(2):
        server.reply_tool_call(SEARCH_TOOL, "{broken")
    answer = ask_knowledge(settings, server)
    assert answer.status == "error"
    assert "not a JSON object" in (answer.reason or answer.answer) and "{broken" not in answer.answer


def test_an_empty_answer_is_unanswered_not_shown(settings: Settings, server: FakeOpenAIServer) -> None:
    server.reply_content("")
    server.reply_content("")
    answer = ask_knowledge(settings, server)
    assert answer.status == "unanswered" and answer.answer.strip()


def test_a_number_no_passage_holds_is_not_shown(settings: Settings, server: FakeOpenAIServer) -> None:
    server.reply_tool_call(SEARCH_TOOL, {"query": "ポート"})
    server.reply_content("8080 番です [1]。")
    server.reply_content("Thought: ok\nFinal Answer: 8080 番です [1]。")
    answer = ask_knowledge(settings, server)
    assert answer.status == "unanswered" and "8080" not in answer.answer

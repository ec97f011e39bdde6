"""LLMAnalystBrain over a scripted fake model, and over the real OpenAI client against a local server."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pandas as pd
import pytest
from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage
from pydantic import BaseModel

from bunseki.brain.analyst.contract import (
    AnalystBrain,
    AnalystView,
    ChatTurn,
    CodeGenOutput,
    ExecutionRecord,
    ReasonOutput,
)
from bunseki.brain.analyst.llm import LLMAnalystBrain
from bunseki.data.summary import summarize
from bunseki.domain import ExpectedOutput, ReportOutput, ReportSection, TableResult
from bunseki.errors import ModelOutputError, ModelRequestError
from bunseki.llm import create_chat_model
from bunseki.settings import Settings
from tests.fakes.chat import scripted, tool_call, tool_reply
from tests.fakes.openai_server import FakeOpenAIServer, fake_openai_server

FRAME = pd.DataFrame(
    {
        "region": ["東京", "大阪", "福岡", "札幌"] * 25,
        "customer_id": [9_000_000 + number for number in range(100)],
        "sales": [1000 + 37 * number for number in range(100)],
    }
)
DATA = summarize(FRAME, source="sales.csv")

ACT = ReasonOutput(next_action="act", instruction="地域別の売上合計を集計する", rationale="集計が必要")
ASK = ReasonOutput(next_action="ask", question="売上は税込ですか？", rationale="列の意味が不明")
FINALIZE = ReasonOutput(next_action="finalize", assumption="税込とみなす", rationale="十分な結果がある")
CODE = CodeGenOutput(
    code="total = df.groupby('region')['sales'].sum()\nprint(total)",
    expected_outputs=[ExpectedOutput(file_name="sales.png", description="地域別売上", output_type="figure")],
)
REPORT = ReportOutput(
    title="地域別売上",
    conclusion="東京の売上合計が最も大きいです。",
    sections=[
        ReportSection(section_type="text", content="東京が最大。"),
        ReportSection(section_type="image", content="sales.png", description="地域別売上"),
    ],
    suggestions=["月別の推移を見る"],
    language="en",  # the brain must take the language from the view, not from the model
)
ROLES: dict[str, Callable[[AnalystBrain, AnalystView], BaseModel]] = {
    "decide": lambda brain, view: brain.decide(view),
    "write_code": lambda brain, view: brain.write_code(view),
    "write_report": lambda brain, view: brain.write_report(view),
}
ANSWERS: dict[str, BaseModel] = {"decide": ACT, "write_code": CODE, "write_report": REPORT}


def make_view(**changes: Any) -> AnalystView:
    values: dict[str, Any] = {
        "question": "地域別の売上を比較して",
        "language": "ja",
        "data": DATA,
        "instruction": "地域別の売上合計を集計する",
    }
    return AnalystView(**(values | changes))


def prompt_text(messages: list[BaseMessage]) -> str:
    return "\n".join(str(message.content) for message in messages)


# --- over the scripted fake model ---


@pytest.mark.parametrize("decision", [ACT, ASK, FINALIZE], ids=["act", "ask", "finalize"])
def test_decide_returns_the_models_decision(decision: ReasonOutput) -> None:
    model = scripted(tool_reply(decision))
    assert LLMAnalystBrain(model, name="fake").decide(make_view()) == decision


def test_write_code_returns_the_code_and_its_outputs() -> None:
    assert LLMAnalystBrain(scripted(tool_reply(CODE)), name="fake").write_code(make_view()) == CODE


def test_write_report_takes_language_and_assumptions_from_the_view() -> None:
    brain = LLMAnalystBrain(scripted(tool_reply(REPORT)), name="fake")
    report = brain.write_report(make_view(assumptions=["税込とみなす"]))
    assert report.conclusion == REPORT.conclusion
    assert report.sections == REPORT.sections
    assert (report.language, report.assumptions) == ("ja", ["税込とみなす"])


def test_llm_brain_is_a_brain() -> None:
    brain = LLMAnalystBrain(scripted(), name="openai:gpt-4o-mini")
    assert isinstance(brain, AnalystBrain)
    assert brain.name == "openai:gpt-4o-mini"


def test_a_malformed_answer_is_retried_with_the_problem_shown() -> None:
    model = scripted(tool_call("ReasonOutput", {"next_action": "dance", "rationale": "?"}), tool_reply(ASK))
    assert LLMAnalystBrain(model, name="fake").decide(make_view()) == ASK
    first, second = model.received
    assert second[: len(first)] == first
    (correction,) = second[len(first) :]
    assert isinstance(correction, HumanMessage)
    assert "could not be used as ReasonOutput" in str(correction.content)
    assert "next_action" in str(correction.content)


def test_two_malformed_answers_are_a_model_output_error() -> None:
    model = scripted(tool_call("CodeGenOutput", {"kode": "print(1)"}), "here is your code: print(1)")
    with pytest.raises(ModelOutputError, match=r"^fake did not return a usable CodeGenOutput after 2 attempts"):
        LLMAnalystBrain(model, name="fake").write_code(make_view())
    assert len(model.received) == 2


def test_an_invalid_report_is_rejected_by_the_report_model() -> None:
    blank = {"title": "t", "conclusion": "   ", "sections": [{"section_type": "text", "content": "x"}]}
    model = scripted(tool_call("ReportOutput", blank), tool_call("ReportOutput", blank))
    with pytest.raises(ModelOutputError, match="conclusion"):
        LLMAnalystBrain(model, name="fake").write_report(make_view())


def test_a_question_that_is_a_name_is_sent_back() -> None:
    """Seen with a tiny real model: status asked, and the question was the decision's name."""
    named = {"next_action": "ask", "question": "ask_action", "rationale": "ask_action"}
    model = scripted(tool_call("ReasonOutput", named), tool_call("ReasonOutput", named))
    with pytest.raises(ModelOutputError, match="asking needs `question`") as caught:
        LLMAnalystBrain(model, name="fake").decide(make_view())
    assert "ask_action" not in str(caught.value)  # the model's text is never repeated as ours


@pytest.mark.parametrize(
    "answer",
    [
        {"next_action": "ask", "rationale": "unclear"},
        {"next_action": "ask", "question": "  ", "rationale": "unclear"},
        {"next_action": "ask", "question": "42", "rationale": "unclear"},
        {"next_action": "act", "rationale": "compute"},
    ],
)
def test_incomplete_decisions_do_not_validate(answer: dict[str, Any]) -> None:
    with pytest.raises(ValueError, match="needs"):
        ReasonOutput.model_validate(answer)


@pytest.mark.parametrize("question", ["どの期間ですか？", "Which period?", "Do you mean sales with tax"])
def test_real_questions_validate(question: str) -> None:
    assert ReasonOutput(next_action="ask", question=question, rationale="r").question == question


SALES_RUN = ExecutionRecord(instruction="集計", code="...", success=True, stdout="東京 50000.4\n大阪 42000")


def test_a_report_with_numbers_from_the_executions_is_accepted() -> None:
    grounded = REPORT.model_copy(update={"conclusion": "東京が最大で 50,000 円、大阪は 42,000 円です。"})
    model = scripted(tool_reply(grounded))
    report = LLMAnalystBrain(model, name="fake").write_report(make_view(executions=[SALES_RUN]))
    assert report.conclusion == grounded.conclusion
    assert len(model.received) == 1


def test_a_made_up_number_is_sent_back_then_refused_without_repeating_it() -> None:
    invented = REPORT.model_copy(update={"conclusion": "東京の売上は 73,125 円です。"})
    model = scripted(tool_reply(invented), tool_reply(invented))
    with pytest.raises(ModelOutputError, match="numbers that no executed code printed") as caught:
        LLMAnalystBrain(model, name="fake").write_report(make_view(executions=[SALES_RUN]))
    assert "73" not in str(caught.value)
    correction = str(model.received[1][-1].content)
    assert "73125" in correction and "printed by the executed code" in correction


def test_a_made_up_number_corrected_on_the_second_attempt_is_accepted() -> None:
    invented = REPORT.model_copy(update={"conclusion": "東京の売上は 73,125 円です。"})
    fixed = REPORT.model_copy(update={"conclusion": "東京の売上は 50000.4 円です。"})
    model = scripted(tool_reply(invented), tool_reply(fixed))
    report = LLMAnalystBrain(model, name="fake").write_report(make_view(executions=[SALES_RUN]))
    assert report.conclusion == fixed.conclusion


# --- what the prompts contain ---


def _prompts_for(role: str, view: AnalystView) -> list[BaseMessage]:
    model = scripted(tool_reply(ANSWERS[role]))
    ROLES[role](LLMAnalystBrain(model, name="fake"), view)
    (messages,) = model.received
    return messages


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize(("language", "rule"), [("ja", "in Japanese (日本語)"), ("en", "in English")], ids=["ja", "en"])
def test_every_prompt_carries_the_language_rule(role: str, language: str, rule: str) -> None:
    system, task = _prompts_for(role, make_view(language=language))
    assert isinstance(system, SystemMessage) and isinstance(task, HumanMessage)
    assert rule in str(system.content)
    assert rule in str(task.content).split("## ")[-1]  # repeated after the task, where it is read last


@pytest.mark.parametrize("role", ROLES)
def test_the_data_is_seen_only_through_its_summary(role: str) -> None:
    text = prompt_text(_prompts_for(role, make_view()))
    summary = DATA.to_prompt()
    assert summary in text
    assert "Sample rows (first 3)" in summary
    outside = text.replace(summary, "")
    for row, customer in enumerate(FRAME["customer_id"]):
        assert str(customer) not in outside
        if row >= 3:
            assert str(customer) not in text  # only the 3-row sample reaches the model


def test_without_data_the_prompt_says_so() -> None:
    text = prompt_text(_prompts_for("decide", make_view(data=None)))
    assert "No table is loaded." in text


def test_the_reason_prompt_summarises_runs_compactly() -> None:
    long_output = "x" * 5000 + "\n合計: 123,456"
    runs = [
        ExecutionRecord(
            instruction="地域別に集計",
            code="print(...)",
            success=True,
            stdout=long_output,
            artifacts=["sales.png"],
        ),
        ExecutionRecord(
            instruction="月別に集計",
            code="df['month']",
            success=False,
            error="KeyError: 'month'" + "!" * 2000,
        ),
    ]
    view = make_view(
        executions=runs,
        history=[ChatTurn(role="user", content="こんにちは"), ChatTurn(role="assistant", content="どうぞ")],
        assumptions=["税込とみなす"],
        loop_count=2,
    )
    text = prompt_text(_prompts_for("decide", view))
    assert "### Run 1 (succeeded)" in text and "### Run 2 (failed)" in text
    assert "Instruction: 地域別に集計" in text
    assert "合計: 123,456" in text  # the end of a long output is kept
    assert "characters omitted" in text
    assert "x" * 1000 not in text
    assert "KeyError: 'month'" in text and "!" * 500 not in text
    assert "Files: sales.png" in text
    assert "Person: こんにちは" in text and "Assistant: どうぞ" in text
    assert "- 税込とみなす" in text
    assert "Runs used: 2 of 5." in text
    assert "df['month']" not in text  # the code itself is for the code writer, not the planner


@pytest.mark.parametrize(
    ("loop_count", "expected"),
    [(3, "Runs used: 3 of 5."), (4, "This is the last run"), (5, 'you must choose "finalize" now')],
)
def test_the_reason_prompt_tells_when_to_finalize(loop_count: int, expected: str) -> None:
    text = prompt_text(_prompts_for("decide", make_view(loop_count=loop_count)))
    assert expected in text
    assert ("must finalize" in text or 'must choose "finalize"' in text) is (loop_count >= 4)


def test_the_code_prompt_states_the_sandbox_rules_and_the_failed_code() -> None:
    failed = ExecutionRecord(instruction="月別に集計", code="df['month'].sum()", success=False, error="KeyError")
    text = prompt_text(_prompts_for("write_code", make_view(executions=[failed])))
    for rule in (
        "`df` is already loaded",
        "pandas, numpy, scipy, scikit-learn",
        "No network access",
        'plt.savefig("descriptive_name.png"',
        "Japanese text renders",
        "print() every number",
    ):
        assert rule in text
    assert "## Instruction\n地域別の売上合計を集計する" in text
    assert "```python\ndf['month'].sum()\n```" in text


def test_the_report_prompt_shows_tables_files_and_the_answer_format() -> None:
    table = TableResult(
        columns=["region", "sales"], index=["0", "1"], rows=[["東京", 50000], ["大阪", 42000]], shape=(4, 2)
    )
    run = ExecutionRecord(
        instruction="集計",
        code="...",
        success=True,
        stdout="@total[92000]",
        tables=[table],
        artifacts=["charts/sales.png"],
        outputs=[ExpectedOutput(file_name="sales.png", description="地域別売上", output_type="figure")],
    )
    view = make_view(question="売上合計は？ @total[value] @top_region[name] の形式で", executions=[run])
    text = prompt_text(_prompts_for("write_report", view))
    assert '[{"region": "東京", "sales": 50000}, {"region": "大阪", "sales": 42000}] (first 2 of 4 rows)' in text
    assert "Files: charts/sales.png (地域別売上)" in text
    assert "@total[…], @top_region[…]" in text
    assert "must contain each of them exactly in that form (@name[value])" in text
    assert "never invent" in text


# --- over the real langchain-openai client and a local OpenAI-compatible server ---


@pytest.fixture
def server() -> Iterator[FakeOpenAIServer]:
    with fake_openai_server() as running:
        yield running


def served_brain(server: FakeOpenAIServer, **settings: Any) -> LLMAnalystBrain:
    values: dict[str, Any] = {"llm_base_url": server.url, "openai_api_key": "sk-test"} | settings
    return LLMAnalystBrain(create_chat_model("openai:test-model", Settings(**values)), name="openai:test-model")


@pytest.mark.parametrize("role", ROLES)
def test_each_role_over_the_openai_client(server: FakeOpenAIServer, role: str) -> None:
    answer = ANSWERS[role]
    server.reply_json(answer)
    result = ROLES[role](served_brain(server), make_view())
    assert result.model_dump(exclude={"language"}) == answer.model_dump(exclude={"language"})
    (request,) = server.requests
    assert request["model"] == "test-model"
    assert request["response_format"]["type"] == "json_schema"
    assert request["response_format"]["json_schema"]["name"] == type(answer).__name__
    asked_for = set(request["response_format"]["json_schema"]["schema"]["properties"])
    assert asked_for == set(type(answer).model_fields) - {"plan"}  # a brain's own plan is never the model's to fill
    assert asked_for == set(type(answer).model_json_schema()["properties"])
    system, human = request["messages"]
    assert system["role"] == "system" and "in Japanese (日本語)" in system["content"]
    assert human["role"] == "user" and DATA.to_prompt() in human["content"]
    assert server.headers[0]["authorization"] == "Bearer sk-test"


def test_malformed_json_is_retried_over_the_openai_client(server: FakeOpenAIServer) -> None:
    server.reply_content('{"next_action": "act", "rationale": ')
    server.reply_json(ACT)
    assert served_brain(server).decide(make_view()) == ACT
    first, second = server.requests
    assert second["messages"][: len(first["messages"])] == first["messages"]
    assert "could not be used as ReasonOutput" in second["messages"][-1]["content"]


def test_malformed_json_twice_is_a_model_output_error(server: FakeOpenAIServer) -> None:
    server.reply_content("I think you should act.")
    server.reply_json({"next_action": "act"})
    with pytest.raises(ModelOutputError, match="ReasonOutput after 2 attempts"):
        served_brain(server).decide(make_view())
    assert len(server.requests) == 2


def test_a_cut_off_answer_is_a_model_output_error(server: FakeOpenAIServer) -> None:
    server.reply_content('{"code": "print(', finish_reason="length")
    with pytest.raises(ModelOutputError, match="cut off"):
        served_brain(server).write_code(make_view())


def test_401_is_a_request_error_naming_the_key(server: FakeOpenAIServer) -> None:
    server.reply_error(401, "Incorrect API key provided")
    with pytest.raises(ModelRequestError, match="authentication failed: check OPENAI_API_KEY"):
        served_brain(server).decide(make_view())
    assert len(server.requests) == 1  # authentication failures are not retried


def test_500_is_a_request_error_after_the_clients_retries(server: FakeOpenAIServer) -> None:
    server.reply_error(500, "upstream exploded", times=Settings().llm_max_retries + 1)
    with pytest.raises(ModelRequestError, match=r"failed \(500\): try again later"):
        served_brain(server).write_report(make_view())
    assert len(server.requests) == Settings().llm_max_retries + 1


def test_a_slow_server_is_a_request_error_naming_the_timeout(server: FakeOpenAIServer) -> None:
    for _ in range(Settings().llm_max_retries + 1):
        server.reply_json(ACT, delay_s=10)
    with pytest.raises(ModelRequestError, match=r"did not answer within 0.2 s"):
        served_brain(server, llm_timeout_s=0.2).decide(make_view())


def test_a_server_that_is_not_running_is_a_request_error(server: FakeOpenAIServer) -> None:
    url = server.url
    server.close()
    brain = LLMAnalystBrain(
        create_chat_model("openai:test-model", Settings(llm_base_url=url)), name="openai:test-model"
    )
    with pytest.raises(ModelRequestError, match=f"could not connect to {url}"):
        brain.decide(make_view())


def test_json_mode_asks_for_a_json_object_and_shows_the_schema(server: FakeOpenAIServer) -> None:
    """The fallback for servers that reject JSON schemas (BUNSEKI_LLM_STRUCTURED_OUTPUT=json_mode)."""
    server.reply_json(ASK)
    brain = served_brain(server, llm_structured_output="json_mode")
    assert brain.decide(make_view()) == ASK
    (request,) = server.requests
    assert request["response_format"] == {"type": "json_object"}
    assert '"next_action"' in request["messages"][-1]["content"] and "JSON schema" in request["messages"][-1]["content"]

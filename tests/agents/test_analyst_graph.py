"""The analyst's graph driven by scripted LLM brains over a real sandbox: every route it can take."""

from __future__ import annotations

from typing import Any

from langchain_core.messages import HumanMessage
from langchain_core.runnables import RunnableConfig

from bunseki.agents.analyst import AnalystContext, AnalystState, build, recursion_limit
from bunseki.brain.analyst.contract import CodeGenOutput, ReasonOutput
from bunseki.brain.analyst.llm import LLMAnalystBrain
from bunseki.deadline import turn_deadline
from bunseki.domain import ReportOutput, ReportSection
from bunseki.sandbox.backend import SessionSandbox
from bunseki.state import DataState
from tests.agents.conftest import FRAME
from tests.fakes.chat import ScriptedChatModel, scripted, tool_call, tool_reply


def act(instruction: str) -> Any:
    return tool_reply(ReasonOutput(next_action="act", instruction=instruction, rationale="計算が必要"))


def code(text: str) -> Any:
    return tool_reply(CodeGenOutput(code=text))


FINALIZE = tool_reply(ReasonOutput(next_action="finalize", rationale="答えが出た"))
REPORT = tool_reply(
    ReportOutput(
        title="地域別売上",
        conclusion="関東の売上合計は 250 で最大です。",
        sections=[ReportSection(section_type="text", content="関東 250、近畿 80、九州 60")],
    )
)
TOTAL_REPORT = tool_reply(
    ReportOutput(
        title="売上合計",
        conclusion="売上の合計は 390 です。",
        sections=[ReportSection(section_type="text", content="全地域の合計: 390")],
    )
)
PARTIAL_REPORT = tool_reply(
    ReportOutput(
        title="途中経過",
        conclusion="試行の結果を途中まで示します。",
        sections=[ReportSection(section_type="text", content="各試行の出力は実行結果のとおりです。")],
    )
)


def run(
    model: ScriptedChatModel, sandbox: SessionSandbox, question: str, *, max_loops: int = 5, with_data: bool = True
) -> AnalystState:
    data_state = DataState(FRAME, sandbox.workspace, source="売上.csv") if with_data else None
    context = AnalystContext(
        brain=LLMAnalystBrain(model, name="fake"), sandbox=sandbox, data_state=data_state, max_loops=max_loops
    )
    config: RunnableConfig = {"recursion_limit": recursion_limit(max_loops)}
    final = build().invoke({"messages": [HumanMessage(question)], "language": "ja"}, config, context=context)
    return AnalystState.model_validate(final)


def test_act_then_finalize_writes_the_report_from_execution(sandbox: SessionSandbox) -> None:
    model = scripted(
        act("地域別の売上合計を出す"),
        code("print(df.groupby('地域')['売上'].sum().to_dict())"),
        FINALIZE,
        REPORT,
    )
    state = run(model, sandbox, "地域別の売上合計は？")
    assert state.status == "finalized"
    assert state.loop_count == 1
    [execution] = state.executions
    assert execution.success
    assert "'関東': 250" in execution.stdout
    assert state.final_report is not None and "250" in state.final_report.conclusion
    assert state.messages[-1].content == state.final_report.conclusion
    # the report prompt saw the executed output it must quote
    report_prompt = " ".join(str(message.content) for message in model.received[-1])
    assert "'関東': 250" in report_prompt


def test_ask_ends_the_turn_with_the_question(sandbox: SessionSandbox) -> None:
    model = scripted(tool_reply(ReasonOutput(next_action="ask", question="どの期間ですか？", rationale="期間が不明")))
    state = run(model, sandbox, "売上を見せて")
    assert state.status == "asked"
    assert state.messages[-1].content == "どの期間ですか？"
    assert state.executions == []
    assert len(model.received) == 1


def test_a_failed_cell_goes_back_to_reason_which_retries(sandbox: SessionSandbox) -> None:
    model = scripted(
        act("売上の合計"),
        code("print(df['売り上げ'].sum())"),  # wrong column name
        act("列名を 売上 に直して再実行"),
        code("print(df['売上'].sum())"),
        FINALIZE,
        TOTAL_REPORT,
    )
    state = run(model, sandbox, "売上の合計は？")
    assert state.status == "finalized"
    first, second = state.executions
    assert not first.success and first.error_type == "KeyError"
    assert second.success and second.stdout.strip() == "390"
    # the second decision was taken with the error in view
    retry_prompt = " ".join(str(message.content) for message in model.received[2])
    assert "KeyError" in retry_prompt


def test_the_loop_cap_ends_with_an_intermediate_report(sandbox: SessionSandbox) -> None:
    loops = 3
    replies: list[Any] = []
    for number in range(loops):
        replies += [act(f"試行 {number}"), code(f"print({number})")]
    replies += [act("まだ続けたい"), PARTIAL_REPORT]
    state = run(scripted(*replies), sandbox, "徹底的に調べて", max_loops=loops)
    assert state.status == "limit_reached"
    assert state.loop_count == loops
    assert len(state.executions) == loops
    assert state.final_report is not None


def test_the_turn_deadline_reaches_the_nodes(sandbox: SessionSandbox) -> None:
    """LangGraph runs nodes in a copy of the caller's context, so the deadline is seen there."""
    model = scripted(FINALIZE)
    with turn_deadline(0):
        state = run(model, sandbox, "売上は？")
    assert state.status == "error"
    assert state.error is not None and "BUNSEKI_TURN_DEADLINE_S" in state.error
    assert model.received == []  # no request was started after the deadline


def test_malformed_model_output_ends_in_error_status(sandbox: SessionSandbox) -> None:
    bad = tool_call("ReasonOutput", {"next_action": "dance"})
    state = run(scripted(bad, bad), sandbox, "売上は？")
    assert state.status == "error"
    assert state.error is not None and "ReasonOutput" in state.error


def test_a_report_with_a_made_up_number_falls_back_to_the_executed_results(sandbox: SessionSandbox) -> None:
    """The scripted report claims 250 for the question whose code printed only the total, 390."""
    model = scripted(act("合計"), code("print(df['売上'].sum())"), FINALIZE, REPORT, REPORT)
    state = run(model, sandbox, "売上の合計は？")
    assert state.status == "finalized"
    assert state.final_report is not None
    conclusion = state.final_report.conclusion
    assert "250" not in conclusion and "executed code" in conclusion
    assert any("390" in section.content for section in state.final_report.sections)


def test_malformed_report_falls_back_to_the_executed_results(sandbox: SessionSandbox) -> None:
    broken = tool_call("ReportOutput", {"title": "x"})
    model = scripted(act("合計"), code("print(df['売上'].sum())"), FINALIZE, broken, broken)
    state = run(model, sandbox, "売上の合計は？")
    assert state.status == "finalized"
    assert state.final_report is not None
    assert "390" in " ".join(section.content for section in state.final_report.sections)
    assert "レポートを完成できませんでした" in state.final_report.conclusion


def test_without_data_the_analyst_asks_for_an_upload(sandbox: SessionSandbox) -> None:
    model = scripted()
    state = run(model, sandbox, "売上は？", with_data=False)
    assert state.status == "asked"
    assert "アップロード" in str(state.messages[-1].content)
    assert model.received == []

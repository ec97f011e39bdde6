"""The data tools inside the analyst's graph: reason chooses a tool, tool_exec applies it."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from langchain_core.messages import HumanMessage
from langchain_core.runnables import RunnableConfig

from bunseki.agents.analyst import AnalystContext, AnalystState, build, recursion_limit
from bunseki.brain.analyst.contract import ReasonOutput
from bunseki.brain.analyst.llm import LLMAnalystBrain
from bunseki.domain import ReportOutput, ReportSection
from bunseki.sandbox.backend import SessionSandbox
from bunseki.state import DataState
from tests.agents.conftest import FRAME
from tests.fakes.chat import ScriptedChatModel, scripted, tool_reply

FINALIZE = tool_reply(ReasonOutput(next_action="finalize", rationale="答えが出た"))
REPORT = tool_reply(
    ReportOutput(
        title="関東", conclusion="関東は 2 行です。", sections=[ReportSection(section_type="text", content="関東 2 行")]
    )
)


def use(tool: str, arguments: dict[str, Any] | str) -> Any:
    text = arguments if isinstance(arguments, str) else json.dumps(arguments, ensure_ascii=False)
    return tool_reply(
        ReasonOutput(
            next_action="act", instruction=f"{tool} を使う", rationale="データを絞る", tool=tool, tool_arguments=text
        )
    )


@dataclass
class StepRecorder:
    """The step log as memory: what the store would be given."""

    steps: list[dict[str, Any]] = field(default_factory=list)

    def __call__(self, **step: Any) -> int:
        self.steps.append(step)
        return len(self.steps)


def run(
    model: ScriptedChatModel, sandbox: SessionSandbox, data: DataState, steps: StepRecorder, question: str
) -> AnalystState:
    context = AnalystContext(
        brain=LLMAnalystBrain(model, name="fake"), sandbox=sandbox, data_state=data, record_step=steps
    )
    config: RunnableConfig = {"recursion_limit": recursion_limit(5)}
    final = build().invoke({"messages": [HumanMessage(question)], "language": "ja"}, config, context=context)
    return AnalystState.model_validate(final)


def prompts(model: ScriptedChatModel, call: int) -> str:
    return " ".join(str(message.content) for message in model.received[call])


def test_a_tool_action_changes_the_current_data_and_is_recorded(sandbox: SessionSandbox) -> None:
    data, steps = DataState(FRAME, sandbox.workspace), StepRecorder()
    model = scripted(use("filter_data", {"column": "地域", "operator": "eq", "value": "関東"}), FINALIZE, REPORT)
    state = run(model, sandbox, data, steps, "関東だけにして")
    assert state.status == "finalized"
    [execution] = state.executions
    assert execution.tool == "filter_data" and execution.success
    assert data.current["地域"].tolist() == ["関東", "関東"]
    [step] = steps.steps
    assert step["step_type"] == "filter_data" and step["changes_data"]
    assert (step["rows_before"], step["rows_after"]) == (4, 2)
    assert step["parameters"] == {"column": "地域", "operator": "eq", "value": "関東"}
    assert data.position == 1
    # the model saw the tools before, and the active (filtered) data state after
    assert "filter_data" in prompts(model, 0)
    assert "加工後のデータ（2 行／元 4 行）" in prompts(model, 1)


def test_a_reading_tool_is_recorded_without_changing_data(sandbox: SessionSandbox) -> None:
    data, steps = DataState(FRAME, sandbox.workspace), StepRecorder()
    model = scripted(use("value_counts", {"column": "地域"}), FINALIZE, REPORT)
    state = run(model, sandbox, data, steps, "地域ごとの件数は？")
    assert "関東" in state.executions[0].stdout and "2" in state.executions[0].stdout
    assert not steps.steps[0]["changes_data"]
    assert data.is_original


def test_bad_arguments_give_the_model_a_retry_naming_the_choices(sandbox: SessionSandbox) -> None:
    data, steps = DataState(FRAME, sandbox.workspace), StepRecorder()
    model = scripted(
        use("filter_data", {"column": "region", "operator": "eq", "value": "関東"}),
        use("filter_data", {"column": "地域", "operator": "equals!", "value": "関東"}),
        use("filter_data", "{not json"),
        use("filter_data", {"column": "地域", "operator": "eq", "value": "関東"}),
        FINALIZE,
        REPORT,
    )
    state = run(model, sandbox, data, steps, "関東だけにして")
    first, second, third, fourth = state.executions
    assert not first.success and first.error is not None and "地域" in first.error and "売上" in first.error
    assert not second.success and second.error is not None and "eq" in second.error
    assert not third.success and third.error is not None and "JSON" in third.error
    assert fourth.success
    assert "region" in prompts(model, 1) and "地域" in prompts(model, 1)  # the retry message reached the model
    assert [step["step_type"] for step in steps.steps] == ["filter_data"]  # failures change and record nothing
    assert len(data.current) == 2


def test_reset_data_returns_to_the_original(sandbox: SessionSandbox) -> None:
    data, steps = DataState(FRAME, sandbox.workspace), StepRecorder()
    data.apply("filter_data", {"column": "地域", "operator": "eq", "value": "関東"}, position=0)
    model = scripted(use("reset_data", {}), FINALIZE, REPORT)
    state = run(model, sandbox, data, steps, "元のデータに戻して")
    assert state.executions[0].success and "元のデータ（4 行）" in state.executions[0].stdout
    assert data.is_original and len(data.current) == 4
    assert steps.steps[0]["step_type"] == "reset"


def test_an_unknown_tool_is_a_retry_not_a_crash(sandbox: SessionSandbox) -> None:
    data, steps = DataState(FRAME, sandbox.workspace), StepRecorder()
    model = scripted(use("drop_everything", {}), FINALIZE, REPORT)
    state = run(model, sandbox, data, steps, "全部消して")
    [execution] = state.executions
    assert not execution.success and execution.error is not None and "filter_data" in execution.error
    assert state.status == "finalized" and data.is_original and not steps.steps

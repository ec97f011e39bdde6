"""The nodes of the analyst's graph. Each asks the brain and, for code, the sandbox."""

from __future__ import annotations

import json
import time
from typing import Any

import pandas as pd
from langchain_core.messages import AIMessage, AnyMessage, HumanMessage
from langgraph.config import get_stream_writer
from langgraph.runtime import Runtime

from bunseki.agents.analyst.context import AnalystContext
from bunseki.agents.analyst.fallback import fallback_report
from bunseki.agents.analyst.state import AnalystState, ReasonStep
from bunseki.brain.analyst.contract import AnalystView, ChatTurn, ExecutionRecord
from bunseki.brain.streaming import streaming_answer
from bunseki.domain import ExecutionResult
from bunseki.errors import ModelError, ToolRetry
from bunseki.state import RESET

HISTORY_TURNS = 10
HISTORY_CHARS = 4000
NO_DATA = {
    "ja": "分析するデータがまだありません。CSV・TSV・Excel・Parquet のファイルをアップロードしてください。",
    "en": "There is no data to analyse yet. Please upload a CSV, TSV, Excel or Parquet file.",
}


def reason(state: AnalystState, runtime: Runtime[AnalystContext]) -> dict[str, Any]:
    """Interpret the request and the results so far: ask, act or finalize."""
    context = runtime.context
    emit = get_stream_writer()
    emit({"event": "node_started", "node": "reason", "loop": state.loop_count})
    if context.data is None:
        text = NO_DATA[state.language]
        step = ReasonStep(next_action="ask", rationale="no data loaded", question=text)
        return {"next_action": "ask", "status": "asked", "steps": [step], "messages": [AIMessage(text)]}
    try:
        decision = context.brain.decide(view(state, context))
    except ModelError as exc:
        emit({"event": "error", "node": "reason", "error": str(exc)})
        return {"status": "error", "error": str(exc), "next_action": None}
    step = ReasonStep(
        next_action=decision.next_action,
        rationale=decision.rationale,
        instruction=decision.instruction,
        question=decision.question,
        assumption=decision.assumption,
    )
    update: dict[str, Any] = {"next_action": decision.next_action, "steps": [step], "tool": None}
    if decision.plan is not None:
        update["plan"] = decision.plan
    if decision.assumption:
        update["assumptions"] = [decision.assumption]
    if decision.next_action == "ask":
        update |= {"status": "asked", "messages": [AIMessage(decision.question or decision.rationale)]}
    elif decision.next_action == "act":
        if state.loop_count >= context.max_loops:
            update["status"] = "limit_reached"
        else:
            update |= {"loop_count": state.loop_count + 1, "instruction": decision.instruction}
            if decision.tool and context.data_state is not None:
                update |= {"tool": decision.tool, "tool_arguments": _arguments(decision.tool_arguments)}
    emit({"event": "decision", **step.model_dump()})
    return update


def code_exec(state: AnalystState, runtime: Runtime[AnalystContext]) -> dict[str, Any]:
    """Write code for the instruction and run it in the sandbox; judging the result is ``reason``'s job."""
    context = runtime.context
    emit = get_stream_writer()
    emit({"event": "node_started", "node": "code_exec", "loop": state.loop_count})
    try:
        generated = context.brain.write_code(view(state, context))
    except ModelError as exc:
        record = ExecutionRecord(
            instruction=state.instruction,
            code="",
            success=False,
            error=f"ModelError: {exc}",
            error_type="ModelError",
        )
    else:
        emit({"event": "code", "code": generated.code})
        context.before_code()
        result = context.sandbox.run(generated.code)
        context.after_code()
        record = _record(result, state.instruction, generated, context)
    if context.record_step is not None and record.code:
        context.record_step(
            step_type="code",
            parameters={"instruction": state.instruction, "code": record.code},
            result={
                "success": record.success,
                "stdout": record.visible_stdout[:4000],
                "error": record.error,
                "artifacts": record.artifacts,
            },
            rows_before=None,
            rows_after=None,
            changes_data=False,
            duration_s=record.duration_s,
        )
    emit({"event": "execution", **record.model_dump(include={"success", "stdout", "error", "artifacts"})})
    return {"executions": [record]}


def tool_exec(state: AnalystState, runtime: Runtime[AnalystContext]) -> dict[str, Any]:
    """Apply a data tool to the current data; a data-changing one is recorded as a step."""
    context = runtime.context
    emit = get_stream_writer()
    emit({"event": "node_started", "node": "tool_exec", "loop": state.loop_count})
    data = context.data_state
    name, arguments = state.tool or "", state.tool_arguments or {}
    assert data is not None, "reason only chooses a tool when there is a data state"
    rows_before = len(data.current)
    began = time.monotonic()
    try:
        if "__invalid__" in arguments:
            raise ToolRetry(f"the arguments of {name} are not a JSON object: {arguments['__invalid__'][:200]}")
        if name == RESET_TOOL:
            position = _log(
                context, RESET, arguments, {"rows": len(data.original)}, rows_before, len(data.original), True, began
            )
            data.reset(position=position)
            record = _tool_record(state, name, arguments, True, _reset_text(state.language, len(data.original)))
        else:
            result = data.run(name, arguments)
            rows_after = len(result.frame) if result.frame is not None else rows_before
            position = _log(
                context, name, arguments, result.details, rows_before, rows_after, result.changes_data, began
            )
            data.accept(result, arguments, position=position, language=state.language)
            summary = result.summary_ja if state.language == "ja" else result.summary_en
            preview = (
                result.table if result.table is not None else (data.current.head(5) if result.changes_data else None)
            )
            record = _tool_record(state, name, arguments, True, summary, preview)
    except ToolRetry as exc:
        record = _tool_record(state, name, arguments, False, "", error=f"ToolRetry: {exc}")
    emit(
        {
            "event": "tool",
            "tool": name,
            "arguments": arguments,
            "success": record.success,
            "summary": record.stdout.splitlines()[0] if record.stdout else record.error,
            "data_state": data.describe(state.language),
        }
    )
    return {"executions": [record]}


def report(state: AnalystState, runtime: Runtime[AnalystContext]) -> dict[str, Any]:
    """Write the report from what was executed; an intermediate one when the loop cap was hit."""
    context = runtime.context
    emit = get_stream_writer()
    emit({"event": "node_started", "node": "report", "loop": state.loop_count})
    current = view(state, context)
    try:
        with streaming_answer(emit):  # a streaming model's conclusion reaches listeners as it is written
            final = context.brain.write_report(current)
    except ModelError as exc:
        emit({"event": "error", "node": "report", "error": str(exc)})
        final = fallback_report(current, problem=str(exc))
    status = "limit_reached" if state.status == "limit_reached" else "finalized"
    emit({"event": "report", "title": final.title, "status": status})
    return {"final_report": final, "status": status, "messages": [AIMessage(final.conclusion)]}


def view(state: AnalystState, context: AnalystContext) -> AnalystView:
    """What the brain may see: the question, trimmed history, data summary and results."""
    question, history = _split_messages(state.messages)
    return AnalystView(
        question=question,
        history=history,
        language=state.language,
        data=context.data,
        executions=state.executions,
        loop_count=state.loop_count,
        max_loops=context.max_loops,
        instruction=state.instruction,
        assumptions=state.assumptions,
        workspace_dir=str(context.sandbox.workspace),
        data_state=context.data_state.describe(state.language) if context.data_state is not None else None,
        tools=context.data_state is not None,
        plan=state.plan,
    )


RESET_TOOL = "reset_data"


def _arguments(text: str | None) -> dict[str, Any] | None:
    """The tool arguments a brain gave as JSON; anything unreadable becomes a failed tool step."""
    if not text:
        return {}
    try:
        parsed = json.loads(text)
    except json.JSONDecodeError:
        return {"__invalid__": text}
    return parsed if isinstance(parsed, dict) else {"__invalid__": text}


def _log(
    context: AnalystContext,
    name: str,
    arguments: dict[str, Any],
    details: dict[str, Any],
    before: int,
    after: int,
    changes: bool,
    began: float,
) -> int:
    if context.record_step is None:
        return 0
    return context.record_step(
        step_type=name,
        parameters=arguments,
        result=details,
        rows_before=before,
        rows_after=after,
        changes_data=changes,
        duration_s=time.monotonic() - began,
    )


def _tool_record(
    state: AnalystState,
    name: str,
    arguments: dict[str, Any],
    success: bool,
    summary: str,
    table: pd.DataFrame | None = None,
    *,
    error: str | None = None,
) -> ExecutionRecord:
    output = summary
    if table is not None:
        output += "\n" + table.head(20).to_string()
    return ExecutionRecord(
        instruction=state.instruction,
        tool=name,
        arguments=arguments,
        code=f"{name}({json.dumps(arguments, ensure_ascii=False)})",
        success=success,
        stdout=output,
        error=error,
        error_type="ToolRetry" if error else None,
    )


def _reset_text(language: str, rows: int) -> str:
    return (
        f"元のデータ（{rows:,} 行）に戻しました。"
        if language == "ja"
        else f"Back to the original data ({rows:,} rows)."
    )


def _split_messages(messages: list[AnyMessage]) -> tuple[str, list[ChatTurn]]:
    """The latest human message, and the turns before it (newest kept within the budget)."""
    last_human = max((i for i, message in enumerate(messages) if isinstance(message, HumanMessage)), default=-1)
    question = _text(messages[last_human]) if last_human >= 0 else ""
    turns = [
        ChatTurn(role="user" if isinstance(message, HumanMessage) else "assistant", content=_text(message))
        for message in messages[: max(last_human, 0)]
        if isinstance(message, HumanMessage | AIMessage)
    ]
    kept: list[ChatTurn] = []
    used = 0
    for turn in reversed(turns[-HISTORY_TURNS:]):
        used += len(turn.content)
        if used > HISTORY_CHARS:
            break
        kept.append(turn)
    return question, kept[::-1]


def _text(message: AnyMessage) -> str:
    content = message.content
    if isinstance(content, str):
        return content
    return "".join(part.get("text", "") if isinstance(part, dict) else str(part) for part in content)


def _record(
    result: ExecutionResult, instruction: str | None, generated: Any, context: AnalystContext
) -> ExecutionRecord:
    workspace = context.sandbox.workspace
    return ExecutionRecord(
        instruction=instruction,
        code=result.code,
        success=result.success,
        stdout=result.stdout or "",
        stderr=result.stderr,
        error=result.error,
        error_type=result.error_type,
        limit=result.limit,
        artifacts=[str(path.relative_to(workspace)) for path in result.artifacts],
        tables=result.tables,
        outputs=generated.expected_outputs,
        duration_s=result.duration_s,
    )

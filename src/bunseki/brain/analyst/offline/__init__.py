"""The offline brain: a deterministic analyst that needs no model and no key.

It reads the question into a plan (``parse``), writes pandas code for it (``codegen``), and
writes the report from what that code printed (``answer``); a question that names its answer
format (``@name[value]``) takes the same path, the format being one slot of its intent. Requests that change the data
("関東だけにして", "元のデータに戻して") become data tools (``commands``). Follow-ups such as
"前の結果をグラフにして" reuse the previous question. When it cannot tell what is asked it asks
a precise question back or says what it can do; it never invents an answer.

It reads questions of up to ``MAX_QUESTION_CHARS`` characters (the longest DABench prompt is
about 1,600) and asks for a shorter one beyond that. It understands Japanese and English; a
question in another language gets its answer in English, with a line that says so.
"""

from __future__ import annotations

import json
import re
from typing import Any

from bunseki.brain.analyst.contract import AnalystView, CodeGenOutput, ExecutionRecord, ReasonOutput
from bunseki.brain.analyst.offline import answer, asking, codegen, commands, selfcheck
from bunseki.brain.analyst.offline.parse import plan_question
from bunseki.brain.analyst.offline.plan import Clarification, Plan
from bunseki.brain.language import UNDERSTOOD, foreign_language
from bunseki.domain import ExpectedOutput, ReportOutput

MAX_ATTEMPTS = 2
MAX_QUESTION_CHARS = 4000
PREVIOUS = re.compile(
    r"前の結果|前回の結果|さっきの(?:結果)?|先ほどの(?:結果)?|その結果|今の結果|上の結果|同じ(?:内容|集計|分析)|"
    r"\bprevious (?:result|answer|one)\b|\blast (?:result|answer|one)\b|\bthat result\b|\bthe same\b|"
    r"\b(?:chart|plot|graph) (?:it|that)\b"
)


class OfflineAnalystBrain:
    """The analyst's reason / code / report roles, answered by rules over the data summary."""

    @property
    def name(self) -> str:
        return "offline"

    def decide(self, view: AnalystView) -> ReasonOutput:
        decision = self._decide(view)
        if decision.question and foreign_language(view.question):
            return decision.model_copy(update={"question": f"{UNDERSTOOD}\n{decision.question}"})
        return decision

    def _decide(self, view: AnalystView) -> ReasonOutput:
        if len(view.question) > MAX_QUESTION_CHARS:
            return ReasonOutput(next_action="ask", question=_too_long(view), rationale="question too long")
        pending = self._pending_command(view)
        if isinstance(pending, Clarification):
            return ReasonOutput(next_action="ask", question=pending.question, rationale=pending.reason)
        if pending is not None:
            return ReasonOutput(
                next_action="act",
                instruction=_tool_instruction(pending, view),
                tool=pending.name,
                tool_arguments=json.dumps(pending.arguments, ensure_ascii=False),
                rationale=_why_tool(pending, view),
            )
        if _commands_only(view):
            return ReasonOutput(next_action="finalize", rationale=_done(view))
        planned = self._plan(view)
        if isinstance(planned, Clarification):
            return ReasonOutput(next_action="ask", question=planned.question, rationale=planned.reason)
        last = view.last_execution
        code_runs = [record for record in view.executions if record.tool is None]
        if last is not None and last.tool is None and last.success and (result := answer.result_of(last)) is not None:
            if _matched_nothing(planned, result):  # 35歳以上 over a weight column: a mean of no rows answers nothing
                empty = asking.no_rows(planned, view.data, view.language)
                return ReasonOutput(next_action="ask", question=empty.question, rationale=empty.reason)
            return ReasonOutput(next_action="finalize", rationale=_done(view))
        failures = [record for record in code_runs if not record.success]
        if len(failures) >= MAX_ATTEMPTS or (last is not None and last.tool is None and last.success):
            return ReasonOutput(next_action="finalize", rationale=_gave_up(view))
        instruction = codegen.describe(planned)
        if failures:
            instruction += (
                "（数値への変換と欠損の除外を加えて再実行）"
                if view.language == "ja"
                else " (again, converting text to numbers and dropping blanks)"
            )
        assumption = " ".join(planned.assumptions) or None
        return ReasonOutput(
            next_action="act",
            instruction=instruction,
            assumption=assumption,
            rationale=_why(planned, view),
            plan=_carried(view, planned),
        )

    def write_code(self, view: AnalystView) -> CodeGenOutput:
        planned = self._plan(view)
        if isinstance(planned, Clarification) or view.data is None:
            raise ValueError("write_code needs a plan; decide() asks first")
        code = codegen.generate(planned, view.data)
        outputs = [
            ExpectedOutput(file_name=name, description=codegen.describe(planned), output_type="figure")
            for name in _chart_files(code)
        ]
        return CodeGenOutput(code=code, expected_outputs=outputs)

    def write_report(self, view: AnalystView) -> ReportOutput:
        record = _last_result(view.executions)
        tools = [r for r in view.executions if r.tool is not None]
        if record is None and tools:
            return _noted(answer.tool_report(tools, view.data_state, view.language, view.data), view)
        planned = self._plan(view)
        plan = planned if isinstance(planned, Plan) else None
        if plan is None or record is None:
            return _noted(answer.failure_report(plan, view.last_execution, view.language), view)
        result = answer.result_of(record)
        assert result is not None  # _last_result only returns records with a result
        report = answer.build_report(plan, record, result, view.data)
        if tools:  # the data steps this turn took come first in the evidence
            report = answer.with_tool_steps(report, tools)
        return _noted(report, view)

    # --- reading the request ---------------------------------------------------------------

    def _pending_command(self, view: AnalystView) -> commands.ToolCall | Clarification | None:
        """The next data tool this request asks for, if any is left to apply."""
        if not view.tools or view.data is None or not commands.is_command(view.question):
            return None
        calls = commands.plan_commands(view.question, view.data, view.language)
        applied = [record for record in view.executions if record.tool is not None]
        if applied and not applied[-1].success:
            return None  # report the refusal instead of retrying blindly
        if not calls and not applied:
            return _ask_condition(view)
        return calls[len(applied)] if len(applied) < len(calls) else None

    def _plan(self, view: AnalystView) -> Plan | Clarification:
        if view.data is None:
            return Clarification(question="", reason="no data")
        question = _effective_question(view)
        planned = _read_before(view, question) or plan_question(question, view.data, view.language)
        if isinstance(planned, Plan):
            applied = [(r.tool, r.arguments) for r in view.executions if r.tool is not None and r.success]
            if applied:  # conditions the tools already applied are not applied again
                planned = planned.model_copy(
                    update={
                        "filters": [
                            f
                            for f in planned.filters
                            if (call := commands.filter_call(f, view.data)) is None
                            or (call.name, call.arguments) not in applied
                        ]
                    }
                )
            if any(not record.success for record in view.executions if record.tool is None):
                planned = planned.model_copy(update={"robust": True})
            mismatch = selfcheck.check(planned, question, view.language)  # the asked form, or ask
            if mismatch is not None:
                return mismatch
        return planned


def _carried(view: AnalystView, planned: Plan) -> dict[str, object]:
    """The plan as the graph keeps it, with the question it was read from (one reading per turn)."""
    columns = view.data.columns if view.data is not None else []
    return {"question": _effective_question(view), "columns": columns, "plan": planned.model_dump(mode="json")}


def _read_before(view: AnalystView, question: str) -> Plan | None:
    """The plan this turn's decision read from ``question``, if the graph carried one: the question is
    read once, and the code and the report use the same reading."""
    carried = view.plan or {}
    columns = view.data.columns if view.data is not None else []
    if carried.get("question") != question or carried.get("columns") != columns:
        return None  # another question, or other data (a new file, a data step): read afresh
    if not isinstance(carried.get("plan"), dict):
        return None
    return Plan.model_validate(carried["plan"])


def _effective_question(view: AnalystView) -> str:
    """'前の結果をグラフにして' means the previous question, answered again with a chart."""
    if not PREVIOUS.search(view.question.lower()):
        return view.question
    previous = next(
        (
            turn.content
            for turn in reversed(view.history)
            if turn.role == "user"
            and len(turn.content) <= MAX_QUESTION_CHARS
            and not PREVIOUS.search(turn.content.lower())
            and _asks_analysis(turn.content, view)
        ),
        None,
    )
    if previous is None:
        return view.question
    rest = PREVIOUS.sub("", view.question)
    return f"{previous} {rest}"


def _asks_analysis(question: str, view: AnalystView) -> bool:
    """Whether an earlier message asked for a result, not only for a change to the data."""
    if view.data is None or not commands.is_command(question):
        return True
    return commands.wants_analysis(question, view.data, view.language)


def _commands_only(view: AnalystView) -> bool:
    """A request that only changed the data, now done: there is nothing to compute."""
    applied = [record for record in view.executions if record.tool is not None]
    if not applied or view.data is None:
        return False
    if not applied[-1].success:
        return True
    return not commands.wants_analysis(view.question, view.data, view.language)


def _too_long(view: AnalystView) -> str:
    if view.language == "ja":
        return (
            f"質問が長すぎます（{len(view.question):,}文字）。オフラインの分析エンジンが読めるのは"
            f"{MAX_QUESTION_CHARS:,}文字までです。知りたいことを短く書いてください（例:「地域別の売上合計は？」）。"
        )
    return (
        f"The question is too long ({len(view.question):,} characters); the offline analyst reads up to "
        f"{MAX_QUESTION_CHARS:,}. Please ask it in fewer words (for example 'total sales by region')."
    )


def _noted(report: ReportOutput, view: AnalystView) -> ReportOutput:
    """A question in a language the analyst does not write gets its answer in English, saying so."""
    if not foreign_language(view.question):
        return report
    return report.model_copy(update={"conclusion": f"{UNDERSTOOD}\n\n{report.conclusion}"})


def _ask_condition(view: AnalystView) -> Clarification:
    if view.language == "ja":
        return Clarification(
            question="どのように変えますか？ 例:「地域が関東の行だけにして」「売上の高い順に並べて」"
            "「地域別に売上を集計して」「元のデータに戻して」",
            reason="command without details",
        )
    return Clarification(
        question="How should I change the data? For example: 'keep only region = Kanto', "
        "'sort by sales descending', 'aggregate sales by region', 'reset to the original data'.",
        reason="command without details",
    )


def _last_result(records: list[ExecutionRecord]) -> ExecutionRecord | None:
    for record in reversed(records):
        if record.tool is None and record.success and answer.result_of(record) is not None:
            return record
    return None


def _chart_files(code: str) -> list[str]:
    return re.findall(r"plt\.savefig\('([^']+)'", code)


def _tool_instruction(call: commands.ToolCall, view: AnalystView) -> str:
    arguments = ", ".join(f"{key}={value}" for key, value in call.arguments.items())
    return (
        f"データを変更: {call.name}({arguments})"
        if view.language == "ja"
        else f"Change the data: {call.name}({arguments})"
    )


def _why_tool(call: commands.ToolCall, view: AnalystView) -> str:
    if view.language == "ja":
        return f"データそのものを変える依頼なので、ツール {call.name} を使います。"
    return f"The request changes the data itself, so the {call.name} tool is used."


def _why(plan: Plan, view: AnalystView) -> str:
    if view.language == "ja":
        return f"質問を「{codegen.describe(plan)}」と解釈しました。"
    return f"Read the question as: {codegen.describe(plan)}."


def _done(view: AnalystView) -> str:
    return (
        "結果が得られたのでレポートにまとめます。" if view.language == "ja" else "The result is in; writing the report."
    )


def _gave_up(view: AnalystView) -> str:
    if view.language == "ja":
        return "再試行しても計算できなかったため、分かったことを報告します。"
    return "The computation failed again; reporting what is known."


def _matched_nothing(plan: Plan, result: dict[str, Any]) -> bool:
    """The plan's conditions left no row for a statistic, a grouping or a trend (a count of none, or
    whether any row exists, is an answer: 0, no)."""
    return (
        bool(plan.filters)
        and result.get("rows") == 0
        and plan.task not in ("count", "missing", "duplicates", "answers")
        and plan.form != "yesno"
    )

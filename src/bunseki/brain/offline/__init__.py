"""The offline brain: a deterministic analyst that needs no model and no key.

It reads the question into a plan (``parse``), writes pandas code for it (``codegen``), and
writes the report from what that code printed (``answer``). When it cannot tell what is asked
it asks a precise question back or says what it can do; it never invents an answer.
"""

from __future__ import annotations

from bunseki.brain.models import AnalystView, CodeGenOutput, ExecutionRecord, ReasonOutput
from bunseki.brain.offline import answer, codegen, formats
from bunseki.brain.offline.parse import plan_question
from bunseki.brain.offline.plan import Clarification, Plan
from bunseki.report.models import ReportOutput
from bunseki.sandbox.models import ExpectedOutput

MAX_ATTEMPTS = 2


class OfflineBrain:
    """Seed 000's reason / code / report roles, answered by rules over the data summary."""

    @property
    def name(self) -> str:
        return "offline"

    def decide(self, view: AnalystView) -> ReasonOutput:
        planned = self._plan(view)
        if isinstance(planned, Clarification):
            return ReasonOutput(next_action="ask", question=planned.question, rationale=planned.reason)
        last = view.last_execution
        if last is not None and last.success and answer.result_of(last) is not None:
            return ReasonOutput(next_action="finalize", rationale=_done(view))
        failures = [record for record in view.executions if not record.success]
        if len(failures) >= MAX_ATTEMPTS or (last is not None and last.success):
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
            next_action="act", instruction=instruction, assumption=assumption, rationale=_why(planned, view)
        )

    def write_code(self, view: AnalystView) -> CodeGenOutput:
        planned = self._plan(view)
        if isinstance(planned, Clarification) or view.data is None:
            raise ValueError("write_code needs a plan; decide() asks first")
        code = (
            formats.generate(planned, view.data) if planned.task == "answers" else codegen.generate(planned, view.data)
        )
        outputs = [
            ExpectedOutput(file_name=name, description=codegen.describe(planned), output_type="figure")
            for name in _chart_files(code)
        ]
        return CodeGenOutput(code=code, expected_outputs=outputs)

    def write_report(self, view: AnalystView) -> ReportOutput:
        planned = self._plan(view)
        plan = planned if isinstance(planned, Plan) else None
        record = _last_result(view.executions)
        if plan is None or record is None:
            failed = view.last_execution
            return answer.failure_report(plan, failed, view.language)
        result = answer.result_of(record)
        assert result is not None  # _last_result only returns records with a result
        if plan.task == "answers":
            return formats.build_report(plan, record, result)
        return answer.build_report(plan, record, result)

    def _plan(self, view: AnalystView) -> Plan | Clarification:
        if view.data is None:
            return Clarification(question="", reason="no data")
        planned = formats.plan_answers(view.question, view.data, view.language) or plan_question(
            view.question, view.data, view.language
        )
        if isinstance(planned, Plan) and any(not record.success for record in view.executions):
            planned = planned.model_copy(update={"robust": True})
        return planned


def _last_result(records: list[ExecutionRecord]) -> ExecutionRecord | None:
    for record in reversed(records):
        if record.success and answer.result_of(record) is not None:
            return record
    return None


def _chart_files(code: str) -> list[str]:
    import re

    return re.findall(r"plt\.savefig\('([^']+)'", code)


def _why(plan: Plan, view: AnalystView) -> str:
    if view.language == "ja":
        return f"質問を「{codegen.describe(plan)}」と解釈しました。"
    return f"Read the question as: {codegen.describe(plan)}."


def _done(view: AnalystView) -> str:
    return (
        "計算結果が得られたのでレポートにまとめます。"
        if view.language == "ja"
        else "The result is in; writing the report."
    )


def _gave_up(view: AnalystView) -> str:
    if view.language == "ja":
        return "再試行しても計算できなかったため、分かったことを報告します。"
    return "The computation failed again; reporting what is known."

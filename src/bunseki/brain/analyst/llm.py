"""`LLMAnalystBrain`: the analyst's judgements as structured-output calls to any LangChain chat model."""

from __future__ import annotations

import json

from bunseki.brain.analyst import prompts
from bunseki.brain.analyst.contract import AnalystView, CodeGenOutput, ReasonOutput
from bunseki.brain.grounding import UNGROUNDED, Objection, report_text, ungrounded
from bunseki.brain.structured import ChatModelBrain
from bunseki.domain import ReportOutput


class LLMAnalystBrain(ChatModelBrain):
    """Asks a chat model for each decision, with the answer's schema as structured output."""

    def decide(self, view: AnalystView) -> ReasonOutput:
        def grounded(decision: ReasonOutput) -> Objection | None:
            return ungrounded_question_numbers(decision, view)

        return self._ask(ReasonOutput, prompts.reason_messages(view), check=grounded)

    def write_code(self, view: AnalystView) -> CodeGenOutput:
        return self._ask(CodeGenOutput, prompts.code_messages(view))

    def write_report(self, view: AnalystView) -> ReportOutput:
        def grounded(report: ReportOutput) -> Objection | None:
            return ungrounded_report_numbers(report, view)

        report = self._ask(ReportOutput, prompts.report_messages(view), check=grounded, stream="conclusion")
        # The view knows these for certain; the model's copy of them is not trusted.
        return report.model_copy(update={"language": view.language, "assumptions": view.assumptions})


def ungrounded_report_numbers(report: ReportOutput, view: AnalystView) -> Objection | None:
    """A correction for the model when the report states numbers that the executions do not show."""
    missing = ungrounded(report_text(report), analyst_sources(view))
    if not missing:
        return None
    return Objection(
        f"The report states numbers that appear in no execution output, in the data summary or in the "
        f"question: {', '.join(missing[:10])}. Use only numbers printed by the executed code, copied as "
        "printed; say what is not known instead of estimating.",
        UNGROUNDED,
    )


def ungrounded_question_numbers(decision: ReasonOutput, view: AnalystView) -> Objection | None:
    """A correction when a clarifying question states numbers that nothing shown to the model has."""
    missing = ungrounded(decision.question or "", analyst_sources(view)) if decision.next_action == "ask" else []
    if not missing:
        return None
    return Objection(
        f"The question to the person states numbers that appear nowhere in the data summary, the results or "
        f"the conversation: {', '.join(missing[:10])}. Ask without inventing figures.",
        "its question stated numbers that appear nowhere in the data or the results",
    )


def analyst_sources(view: AnalystView) -> list[str]:
    """Where an analyst's numbers may come from: what ran, the data's summary, what was asked."""
    sources = [view.question, *(turn.content for turn in view.history)]  # earlier answers were checked too
    if view.data is not None:
        sources.append(view.data.to_prompt())
    for record in view.executions:
        if record.success:
            sources.append(record.stdout)
            sources += [json.dumps(table.model_dump(mode="json"), ensure_ascii=False) for table in record.tables]
    if view.data_state:
        sources.append(view.data_state)
    return sources

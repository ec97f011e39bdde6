"""A session's conversation as exchanges: each question with its replies, report and data steps.

This is what a chat window shows when a session is resumed: the store keeps messages, turns,
steps and reports apart; an `Exchange` puts back together what one question produced.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bunseki.domain import Message, Report, ReportOutput, Step, Turn
from bunseki.service.datastates import ReportFormat


@dataclass(frozen=True)
class Exchange:
    """One question and what answered it; ``turn`` is None for messages recorded outside a turn."""

    turn: Turn | None
    question: str | None
    replies: list[str]
    report: Report | None = None
    # "md", "html", "ipynb" → the file's path in the workspace; `open_report` opens one
    report_files: dict[ReportFormat, str] = field(default_factory=dict)
    steps: list[Step] = field(default_factory=list)  # what the turn did to the data, in order

    @property
    def status(self) -> str | None:
        """How the turn ended (finalized, asked, limit_reached, error, interrupted) or "running"."""
        return self.turn.status if self.turn else None

    @property
    def report_output(self) -> ReportOutput | None:
        """The report as the renderers read it."""
        return ReportOutput.model_validate(self.report.content) if self.report else None


def build_exchanges(
    messages: list[Message],
    turns: list[Turn],
    reports: list[Report],
    steps: list[Step],
) -> list[Exchange]:
    """Group messages by turn, in conversation order, with each turn's report and steps."""
    turns_by_id = {turn.id: turn for turn in turns}
    reports_by_turn = {report.turn_id: report for report in reports if report.turn_id}  # latest wins
    steps_by_turn: dict[str, list[Step]] = {}
    for step in steps:
        if step.turn_id:
            steps_by_turn.setdefault(step.turn_id, []).append(step)
    groups: list[tuple[str | None, list[Message]]] = []
    for message in messages:
        if message.turn_id is not None and groups and groups[-1][0] == message.turn_id:
            groups[-1][1].append(message)
        else:
            groups.append((message.turn_id, [message]))
    exchanges = []
    for turn_id, group in groups:
        report = reports_by_turn.get(turn_id) if turn_id else None
        exchanges.append(
            Exchange(
                turn=turns_by_id.get(turn_id) if turn_id else None,
                question=next((m.content for m in group if m.role == "user"), None),
                replies=[m.content for m in group if m.role == "assistant"],
                report=report,
                report_files=_files(report),
                steps=steps_by_turn.get(turn_id, []) if turn_id else [],
            )
        )
    return exchanges


def _files(report: Report | None) -> dict[ReportFormat, str]:
    if report is None:
        return {}
    paths: dict[ReportFormat, str | None] = {
        "md": report.markdown_path,
        "html": report.html_path,
        "ipynb": report.notebook_path,
    }
    return {fmt: relative for fmt, relative in paths.items() if relative}

"""One open session: its data state, its sandbox (through the backend), its brain, and the graph run per message."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from langchain_core.messages import AnyMessage, HumanMessage
from langchain_core.runnables import RunnableConfig

from bunseki.agents.analyst import AnalystContext, AnalystState, ReasonStep, build, recursion_limit
from bunseki.agents.analyst.context import StepLog
from bunseki.agents.analyst.state import Status
from bunseki.brain.analyst.contract import AnalystBrain, ExecutionRecord
from bunseki.brain.language import detect_language
from bunseki.data import LoadedTable
from bunseki.deadline import turn_deadline
from bunseki.domain import Event, ReportOutput, TurnUsage
from bunseki.report import DataSource, SavedReport, render_markdown, save_report
from bunseki.sandbox.backend import SessionSandbox
from bunseki.settings import Settings
from bunseki.state import DataState


@dataclass
class TurnResult:
    """The outcome of one message: what the CLI, the API and the UI show."""

    status: Status
    workspace_dir: Path
    answer: str | None = None
    question: str | None = None
    report: ReportOutput | None = None
    saved: SavedReport | None = None
    executions: list[ExecutionRecord] = field(default_factory=list)
    steps: list[ReasonStep] = field(default_factory=list)
    loop_count: int = 0
    error: str | None = None
    data_state: str | None = None
    data_notes: list[str] = field(default_factory=list)  # how the file was read (the loader's notes)
    messages: list[AnyMessage] = field(default_factory=list)
    turn_id: str | None = None  # set when the turn belongs to a stored session
    usage: TurnUsage | None = None  # what its model calls cost, when they were recorded

    @property
    def report_path(self) -> Path | None:
        return self.saved.markdown_path if self.saved else None

    @property
    def report_markdown(self) -> str | None:
        """The saved report.md: the report with the code it ran."""
        return self.saved.markdown if self.saved else None

    @property
    def report_text(self) -> str | None:
        """The report as Markdown without its code (the saved report.md keeps that): what a chat shows."""
        return render_markdown(self.report) if self.report is not None else None

    @property
    def artifacts(self) -> list[Path]:
        return [self.workspace_dir / path for record in self.executions for path in record.artifacts]

    def to_json(self) -> dict[str, Any]:
        """The CLI's JSON contract: status, answer, question, report, paths, executions, loop_count."""
        return {
            "status": self.status,
            "answer": self.answer,
            "question": self.question,
            "report_markdown": self.report_markdown,
            "report_path": str(self.report_path) if self.report_path else None,
            "report_html_path": str(self.saved.html_path) if self.saved else None,
            "notebook_path": str(self.saved.notebook_path) if self.saved else None,
            "workspace_dir": str(self.workspace_dir),
            "artifacts": [str(path) for path in self.artifacts],
            "executions": [
                {"code": r.code, "success": r.success, "stdout": r.stdout, "error": r.error}
                for r in self.executions
                if r.tool is None
            ],
            "steps": [
                {"tool": r.tool, "arguments": r.arguments, "success": r.success, "summary": r.stdout.split("\n", 1)[0]}
                for r in self.executions
                if r.tool is not None
            ],
            "loop_count": self.loop_count,
            "assumptions": self.report.assumptions if self.report else [],
            "data_state": self.data_state,
            "data_notes": self.data_notes,
            "error": self.error,
            "usage": self.usage.model_dump(mode="json") if self.usage else None,
        }


class SessionRuntime:
    """A data state in a workspace, a warm sandbox whose ``df`` follows it, and the analyst graph."""

    def __init__(
        self,
        *,
        table: LoadedTable,
        workspace: Path,
        data_state: DataState,
        brain: AnalystBrain,
        settings: Settings,
        sandbox: SessionSandbox,
        record_step: StepLog | None = None,
    ) -> None:
        """``sandbox``: the session's handle on its backend, on ``workspace``."""
        self.table = table
        self.workspace = workspace
        self.data_state = data_state
        self.brain = brain
        self.settings = settings
        self.record_step = record_step
        self.sandbox = sandbox
        self.graph = build()
        self._bound = -1  # the data-state position whose data the sandbox's df holds
        self._dirty = False  # a cell ran since: df in the sandbox may have been changed by code

    def start(self) -> None:
        self.sandbox.start()

    def close(self) -> None:
        self.sandbox.release()  # under Ray the session's actor may be serving another replica

    def sync(self, *, force: bool = False) -> None:
        """Give the sandbox the current data as ``df`` if it does not hold it already."""
        if force or self._dirty or self._bound != self.data_state.position:
            self.sandbox.load_frame(self.data_state.current)
            self._bound, self._dirty = self.data_state.position, False

    def ask(
        self,
        question: str,
        *,
        history: list[AnyMessage],
        report_stem: str,
        record_step: StepLog | None = None,
        on_event: Callable[[Event], None] | None = None,
        config: RunnableConfig | None = None,
    ) -> TurnResult:
        """One graph invocation for ``question``: each message is one invocation.

        ``config``: callbacks, metadata and tags for the graph run (`bunseki.tracing.turn_config`)."""
        self.sync()
        language = detect_language(question)
        context = AnalystContext(
            brain=self.brain,
            sandbox=self.sandbox,
            data_state=self.data_state,
            max_loops=self.settings.max_loops,
            record_step=record_step or self.record_step,
            before_code=self._before_code,
            after_code=self._after_code,
        )
        inputs: dict[str, Any] = {
            "messages": [*history, HumanMessage(question)],
            "language": language,
            "assumptions": self.data_state.note_texts(language),  # how the file was read is an assumption too
        }
        run: RunnableConfig = {**(config or {}), "recursion_limit": recursion_limit(self.settings.max_loops)}
        final: dict[str, Any] = {}
        parts = self.graph.stream(inputs, run, context=context, stream_mode=["custom", "updates", "values"])
        with turn_deadline(self.settings.turn_deadline_s):
            for part in parts:
                mode, chunk = cast(tuple[str, dict[str, Any]], part)
                if mode == "values":
                    final = chunk
                elif on_event is None:
                    continue
                elif mode == "custom":
                    on_event(chunk)
                else:  # "updates": one entry per node that just finished
                    for node in chunk:
                        on_event({"event": "node_finished", "node": node})
        state = AnalystState.model_validate(final)
        return self._result(state, report_stem)

    def _before_code(self) -> None:
        if self._bound != self.data_state.position:  # a tool changed the data earlier in this turn
            self.sync(force=True)

    def _after_code(self) -> None:
        self._dirty = True

    def _result(self, state: AnalystState, stem: str) -> TurnResult:
        result = TurnResult(
            status=state.status,
            workspace_dir=self.workspace,
            executions=state.executions,
            steps=state.steps,
            loop_count=state.loop_count,
            error=state.error,
            data_state=self.data_state.describe(state.language),
            data_notes=self.data_state.note_texts(state.language),
            messages=list(state.messages),
        )
        if state.status == "asked":
            result.question = _last_ai_text(state)
        if state.final_report is not None:
            cells = [record.code for record in state.executions if record.success and record.code and not record.tool]
            recipe = self.data_state.recipe_cell()
            if recipe and cells:
                cells = [recipe, *cells]
            report = _with_notes(state.final_report, result.data_notes)
            result.saved = save_report(
                report,
                self.workspace,
                code_cells=cells,
                source=DataSource.from_loaded(self.table, self.workspace),
                stem=stem,
            )
            result.report = report
            result.answer = report.conclusion
        return result


def _with_notes(report: ReportOutput, notes: list[str]) -> ReportOutput:
    """The report with the loader's notes first among its assumptions (whatever the brain kept of them)."""
    if not notes:
        return report
    assumptions = list(dict.fromkeys([*notes, *report.assumptions]))
    return report.model_copy(update={"assumptions": assumptions})


def _last_ai_text(state: AnalystState) -> str | None:
    for message in reversed(state.messages):
        if message.type == "ai":
            return str(message.content)
    return None

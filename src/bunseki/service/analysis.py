"""Analysing one data file: a workspace, a warm sandbox holding ``df``, and one graph run per question."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from langchain_core.messages import AnyMessage, HumanMessage
from langchain_core.runnables import RunnableConfig

from bunseki.agents.analyst import AnalystContext, AnalystState, ReasonStep, build, recursion_limit
from bunseki.agents.analyst.state import Status
from bunseki.brain.base import Brain
from bunseki.brain.language import detect_language
from bunseki.brain.models import ExecutionRecord
from bunseki.data import LoadedTable, load_table
from bunseki.data.summary import DataFrameInfo, summarize
from bunseki.llm import create_brain
from bunseki.report import DataSource, ReportOutput, save_report
from bunseki.sandbox import Sandbox, add_data_file, new_workspace
from bunseki.settings import Settings

Event = dict[str, Any]


@dataclass
class TurnResult:
    """The outcome of one question: what the CLI, the API and the UI show."""

    status: Status
    workspace_dir: Path
    answer: str | None = None
    question: str | None = None
    report: ReportOutput | None = None
    report_markdown: str | None = None
    report_path: Path | None = None
    html_path: Path | None = None
    notebook_path: Path | None = None
    executions: list[ExecutionRecord] = field(default_factory=list)
    steps: list[ReasonStep] = field(default_factory=list)
    loop_count: int = 0
    error: str | None = None

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
            "report_html_path": str(self.html_path) if self.html_path else None,
            "notebook_path": str(self.notebook_path) if self.notebook_path else None,
            "workspace_dir": str(self.workspace_dir),
            "artifacts": [str(path) for path in self.artifacts],
            "executions": [
                {"code": r.code, "success": r.success, "stdout": r.stdout, "error": r.error} for r in self.executions
            ],
            "loop_count": self.loop_count,
            "assumptions": self.report.assumptions if self.report else [],
            "error": self.error,
        }


class AnalysisSession:
    """One data file in its own workspace, with a warm sandbox holding it as ``df``."""

    def __init__(
        self,
        data_file: Path,
        *,
        settings: Settings | None = None,
        model: str | None = None,
        workspace_dir: Path | None = None,
        brain: Brain | None = None,
    ) -> None:
        self.settings = settings or Settings()
        self.table: LoadedTable = load_table(data_file)
        self.workspace = (workspace_dir or new_workspace(self.settings.workspace_root)).resolve()
        self.workspace.mkdir(parents=True, exist_ok=True)
        self.data_copy = add_data_file(self.workspace, data_file)
        self.info: DataFrameInfo = summarize(self.table.frame, source=data_file.name)
        self.brain = brain or create_brain(model, self.settings)
        self.sandbox = Sandbox(self.workspace, settings=self.settings)
        self.sandbox.start()
        self.sandbox.load_frame(self.table.frame)
        self.graph = build()
        self.messages: list[AnyMessage] = []

    def __enter__(self) -> AnalysisSession:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.sandbox.close()

    def restore_data(self) -> None:
        """Bind ``df`` to the data as loaded again (cells may have changed it)."""
        self.sandbox.load_frame(self.table.frame)

    def ask(
        self, question: str, *, report_stem: str = "report", on_event: Callable[[Event], None] | None = None
    ) -> TurnResult:
        """Run one graph invocation for ``question`` (seed 000: one invocation per message)."""
        language = detect_language(question)
        context = AnalystContext(
            brain=self.brain, sandbox=self.sandbox, data=self.info, max_loops=self.settings.max_loops
        )
        inputs: dict[str, Any] = {"messages": [*self.messages, HumanMessage(question)], "language": language}
        config: RunnableConfig = {"recursion_limit": recursion_limit(self.settings.max_loops)}
        final: dict[str, Any] = {}
        for part in self.graph.stream(inputs, config, context=context, stream_mode=["custom", "values"]):
            mode, chunk = cast(tuple[str, dict[str, Any]], part)
            if mode == "custom" and on_event is not None:
                on_event(chunk)
            elif mode == "values":
                final = chunk
        state = AnalystState.model_validate(final)
        self.messages = list(state.messages)
        return self._result(state, report_stem)

    def _result(self, state: AnalystState, stem: str) -> TurnResult:
        result = TurnResult(
            status=state.status,
            workspace_dir=self.workspace,
            executions=state.executions,
            steps=state.steps,
            loop_count=state.loop_count,
            error=state.error,
        )
        if state.status == "asked":
            result.question = _last_ai_text(state)
        if state.final_report is not None:
            cells = [record.code for record in state.executions if record.success and record.code]
            saved = save_report(
                state.final_report,
                self.workspace,
                code_cells=cells,
                source=DataSource.from_loaded(self.table, self.workspace),
                stem=stem,
            )
            result.report = state.final_report
            result.answer = state.final_report.conclusion
            result.report_markdown = saved.markdown
            result.report_path = saved.markdown_path
            result.html_path = saved.html_path
            result.notebook_path = saved.notebook_path
        return result


def _last_ai_text(state: AnalystState) -> str | None:
    for message in reversed(state.messages):
        if message.type == "ai":
            return str(message.content)
    return None

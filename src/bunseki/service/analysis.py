"""Analysing one data file without persistence: what ``bunseki analyze`` and ``--batch`` use."""

from __future__ import annotations

import itertools
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

from langchain_core.messages import AnyMessage

from bunseki.brain.analyst.contract import AnalystBrain
from bunseki.brain.factory import create_analyst_brain
from bunseki.data import LoadedTable, load_table
from bunseki.domain import Event
from bunseki.sandbox import add_data_file, backends
from bunseki.sandbox.backend import SandboxBackend, SessionSandbox
from bunseki.service.inputs import checked_question
from bunseki.service.runtime import SessionRuntime, TurnResult
from bunseki.settings import Settings
from bunseki.state import DataState
from bunseki.tracing import TurnRecorder, flush_tracers, turn_config

__all__ = ["AnalysisSession", "TurnResult"]


class AnalysisSession:
    """One data file in its own workspace, with a warm sandbox holding it as ``df``."""

    def __init__(
        self,
        data_file: Path,
        *,
        settings: Settings | None = None,
        model: str | None = None,
        workspace_dir: Path | None = None,
        brain: AnalystBrain | None = None,
        sheet: str | None = None,
        question: str | None = None,
        backend: SandboxBackend | None = None,
    ) -> None:
        """``sheet``: the sheet of a workbook to read; without it, the one whose columns ``question``
        names (the question about to be asked), else the first. The overview says which and why.

        ``backend``: where the sandbox runs (default: the configured one, opened and closed here).
        """
        self.settings = settings or Settings()
        self.table: LoadedTable = load_table(data_file, sheet=sheet, question=question)
        self._owns_backend = backend is None
        self.backend = backend or backends.create(self.settings, warm=False)
        try:
            self.workspace = (workspace_dir or self.backend.new_workspace()).resolve()
            self.workspace.mkdir(parents=True, exist_ok=True)
            add_data_file(self.workspace, data_file)
        except BaseException:
            if self._owns_backend:
                self.backend.close()
            raise
        self._positions = itertools.count(1)
        self.data_state = DataState.of(self.table, self.workspace, source=data_file.name)
        self.runtime = SessionRuntime(
            table=self.table,
            workspace=self.workspace,
            data_state=self.data_state,
            brain=brain or create_analyst_brain(model, self.settings),
            settings=self.settings,
            sandbox=SessionSandbox(self.backend, f"analyze-{uuid.uuid4().hex}", self.workspace),
            record_step=self._count_step,
        )
        try:
            self.runtime.start()
        except BaseException:
            self.close()
            raise
        self.messages: list[AnyMessage] = []

    @property
    def sandbox(self) -> Any:
        return self.runtime.sandbox

    def __enter__(self) -> AnalysisSession:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        try:
            self.runtime.close()
        finally:
            if self._owns_backend:
                self.backend.close()

    def restore_data(self) -> None:
        """Back to the data as loaded (a batch answers each question on the original data)."""
        if not self.data_state.is_original:
            self.data_state.reset(position=next(self._positions))
        self.runtime.sync(force=True)

    def ask(
        self, question: str, *, report_stem: str = "report", on_event: Callable[[Event], None] | None = None
    ) -> TurnResult:
        question = checked_question(question, self.settings.max_question_chars)
        recorder = TurnRecorder()
        try:
            result = self.runtime.ask(
                question,
                history=self.messages,
                report_stem=report_stem,
                on_event=recorder.relay(on_event),
                config=turn_config(recorder, bunseki_workspace=self.workspace.name, bunseki_report=report_stem),
            )
        finally:
            flush_tracers()
        result.usage = recorder.usage(self.runtime.brain.name, self.settings.llm_prices)
        self.messages = result.messages
        return result

    def _count_step(self, **_: Any) -> int:
        return next(self._positions)

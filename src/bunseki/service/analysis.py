"""Analysing one data file without persistence: what ``bunseki analyze`` and ``--batch`` use."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from pathlib import Path
from typing import Any

from langchain_core.messages import AnyMessage

from bunseki.brain.base import Brain
from bunseki.brain.factory import create_brain
from bunseki.data import LoadedTable, load_table
from bunseki.sandbox import add_data_file, new_workspace
from bunseki.service.inputs import checked_question
from bunseki.service.runtime import Event, SessionRuntime, TurnResult
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
        brain: Brain | None = None,
        sheet: str | None = None,
        question: str | None = None,
    ) -> None:
        """``sheet``: the sheet of a workbook to read; without it, the one whose columns ``question``
        names (the question about to be asked), else the first. The overview says which and why."""
        self.settings = settings or Settings()
        self.table: LoadedTable = load_table(data_file, sheet=sheet, question=question)
        self.workspace = (workspace_dir or new_workspace(self.settings.workspace_root)).resolve()
        self.workspace.mkdir(parents=True, exist_ok=True)
        add_data_file(self.workspace, data_file)
        self._positions = itertools.count(1)
        self.data_state = DataState.of(self.table, self.workspace, source=data_file.name)
        self.runtime = SessionRuntime(
            table=self.table,
            workspace=self.workspace,
            data_state=self.data_state,
            brain=brain or create_brain(model, self.settings),
            settings=self.settings,
            record_step=self._count_step,
        )
        self.runtime.start()
        self.messages: list[AnyMessage] = []

    @property
    def sandbox(self) -> Any:
        return self.runtime.sandbox

    def __enter__(self) -> AnalysisSession:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.runtime.close()

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

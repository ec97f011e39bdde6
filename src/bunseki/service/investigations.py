"""The investigator as a service: check the case, run the graph in a fresh workspace, return a view."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from bunseki.agents.investigator import InvestigatorContext, InvestigatorState, build
from bunseki.agents.investigator.graph import RECURSION_LIMIT
from bunseki.brain.factory import create_investigator_brain
from bunseki.brain.investigator.contract import InvestigatorBrain
from bunseki.brain.language import detect_language
from bunseki.deadline import turn_deadline
from bunseki.domain import Event, TurnUsage
from bunseki.errors import BunsekiError
from bunseki.investigation.case import Case, load_case
from bunseki.rag import Embedder
from bunseki.report.investigation import write_investigation_html
from bunseki.sandbox import backends, new_workspace
from bunseki.sandbox.backend import SandboxBackend, SessionSandbox
from bunseki.settings import Settings
from bunseki.tracing import TurnRecorder, flush_tracers, turn_config


@dataclass(frozen=True)
class HypothesisView:
    id: str
    kind: str
    statement: str
    verified: bool | None
    evidence: str
    iterations: int

    def as_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass(frozen=True)
class DatasetResultView:
    name: str
    status: Literal["consistent", "inconsistent", "error"]
    mismatched_frames: list[int]
    hypotheses: list[HypothesisView]
    conclusion: str
    fix: str | None
    charts: list[str]

    def as_dict(self) -> dict[str, Any]:
        return {**self.__dict__, "hypotheses": [h.as_dict() for h in self.hypotheses]}


@dataclass(frozen=True)
class InvestigationView:
    status: Literal["completed", "error"]
    case: str
    datasets: list[DatasetResultView] = field(default_factory=list)
    summary: str = ""
    report_path: str | None = None
    workspace_dir: str | None = None
    error: str | None = None
    report_html_path: str | None = None  # beside the contract's keys, never instead of one
    dataset_reports: dict[str, str] = field(default_factory=dict)  # name → Markdown path; not in as_dict
    usage: TurnUsage | None = None  # what its model calls cost
    trace: dict[str, Any] | None = None  # bunseki.tracing.TurnRecorder.trace; not in as_dict

    def as_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "status": self.status,
            "case": self.case,
            "datasets": [d.as_dict() for d in self.datasets],
            "summary": self.summary,
            "report_path": self.report_path,
            "workspace_dir": self.workspace_dir,
        }
        if self.error:
            data["error"] = self.error
        if self.report_html_path:
            data["report_html_path"] = self.report_html_path
        if self.usage is not None:
            data["usage"] = self.usage.model_dump(mode="json")
        return data


class InvestigationService:
    def __init__(self, settings: Settings, *, backend: SandboxBackend | None = None) -> None:
        """``backend``: where the sandboxes run (default: the configured one, opened for each run)."""
        self.settings = settings
        self.backend = backend

    def check(self, manifest: Path) -> Case:
        """The case, checked; raises `CaseError` before any work."""
        return load_case(manifest)

    def run(
        self,
        manifest: Path,
        *,
        model: str | None = None,
        brain: InvestigatorBrain | None = None,
        on_event: Callable[[Event], None] | None = None,
        workspace: Path | None = None,
        embedder: Embedder | None = None,
        recorder: TurnRecorder | None = None,
    ) -> InvestigationView:
        """Investigate the case in ``workspace`` (a new one under the workspace root unless given).

        ``recorder`` (a new one by default) counts the model calls into the view's usage and trace; a
        caller that passes its own still has them when the investigation raises."""
        case = load_case(manifest)
        chosen = brain if brain is not None else create_investigator_brain(model, self.settings)
        rules = chosen if chosen.name == "offline" else create_investigator_brain("offline", self.settings)
        if workspace is None:
            workspace = new_workspace(self.settings.workspace_root / "investigations")
        backend = self.backend or backends.create(self.settings, warm=False)
        boxes: list[SessionSandbox] = []

        def sandbox() -> SessionSandbox:
            if not boxes:
                box = SessionSandbox(backend, f"inv-{uuid.uuid4().hex}", workspace)
                boxes.append(box)
                box.start()
            return boxes[0]

        context = InvestigatorContext(
            brain=chosen,
            case=case,
            workspace=workspace,
            sandbox=sandbox,
            rules=rules,
            embedder=embedder,
            embedding_cache=self.settings.embedding_cache_path,
        )
        final: dict[str, Any] = {}
        recorder = recorder or TurnRecorder()
        listen = recorder.relay(on_event)
        parts = build().stream(
            InvestigatorState(),
            context=context,
            stream_mode=["custom", "values"],
            config={"recursion_limit": RECURSION_LIMIT, **turn_config(recorder, bunseki_case=case.name)},
        )

        def spent(status: str, error: str | None = None) -> dict[str, Any]:
            usage = recorder.usage(chosen.name, self.settings.llm_prices)
            return {"usage": usage, "trace": recorder.trace(model=chosen.name, status=status, error=error)}

        try:
            with turn_deadline(self.settings.turn_deadline_s):
                for mode, chunk in parts:
                    if mode == "custom" and isinstance(chunk, dict):
                        listen(chunk)
                    elif mode == "values" and isinstance(chunk, dict):
                        final = chunk
        except BunsekiError as exc:
            error = str(exc)
            return InvestigationView(
                "error", case.name, workspace_dir=str(workspace), error=error, **spent("error", error)
            )
        finally:
            flush_tracers()
            context.close()
            for box in boxes:
                box.close()
            if backend is not self.backend:
                backend.close()
        state = InvestigatorState.model_validate(final)
        report = str(workspace / state.report_path) if state.report_path else None
        language = detect_language(" ".join(ds.expected.text for ds in case.datasets))
        html = write_investigation_html(workspace, case.name, state.results, language)
        return InvestigationView(
            status="completed",
            case=case.name,
            datasets=[_dataset_view(r) for r in state.results],
            summary=state.summary,
            report_path=report,
            workspace_dir=str(workspace),
            report_html_path=str(workspace / html),
            dataset_reports={r["name"]: r["report_path"] for r in state.results if r.get("report_path")},
            **spent("completed"),
        )


def _dataset_view(record: dict[str, Any]) -> DatasetResultView:
    return DatasetResultView(
        name=record["name"],
        status=record["status"],
        mismatched_frames=list(record.get("mismatched_frames", [])),
        hypotheses=[
            HypothesisView(h["id"], h["kind"], h["statement"], h["verified"], h["evidence"], h["iterations"])
            for h in record.get("hypotheses", [])
        ],
        conclusion=record["conclusion"],
        fix=record.get("fix"),
        charts=list(record.get("charts", [])),
    )

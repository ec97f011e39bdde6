"""The EDA pipeline over HTTP: start a run on an upload, answer its reviews, read its report and charts."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Form, Request, Response
from fastapi.concurrency import run_in_threadpool
from pydantic import BaseModel, Field

from bunseki.api.deps import DataFile, ModelSpec, User, from_app, hex_id, stripped
from bunseki.api.downloads import REPORT_TYPES, OpenFileResponse, ReportFormat, file_responses, report_links
from bunseki.api.problems import responses
from bunseki.api.streaming import events_response, respond
from bunseki.domain import EdaRunDetails, EdaRunSummary, Listener, Omitted
from bunseki.service.eda import EdaService

PREFIX = "/api/v1/eda"
router = APIRouter(prefix=PREFIX, tags=["eda"], responses=responses(401, 422))
RunId = Annotated[str, hex_id("run")]
Eda = Annotated[EdaService, Depends(from_app("eda"))]
STREAM = events_response(
    "With `Accept: text/event-stream`: progress events (node_started, validated, plan, code, "
    "execution, finding, report, error), then one `result` event whose data is the EdaRun, or one `error` "
    "event whose data is a problem document."
)


class EdaRun(EdaRunDetails):
    """A run as the API shows it: files as URLs of this API, never paths on the server."""

    workspace: Omitted = None

    @classmethod
    def public(cls, view: EdaRunDetails) -> EdaRun:
        base = view.workspace.rstrip("/") + "/"
        url = f"{PREFIX}/runs/{view.run_id}"

        def url_of(path: str) -> str:
            return f"{url}/artifacts/{path.removeprefix(base)}"

        reports = report_links(url, view.report_files)
        findings = [
            finding.model_copy(update={"artifacts": [url_of(base + path) for path in finding.artifacts]})
            for finding in view.findings
        ]
        return cls.model_validate(
            view.model_dump()
            | {
                "artifacts": [url_of(path) for path in view.artifacts],
                "report_files": reports,
                "report_path": reports.get("md"),
                "findings": [finding.model_dump() for finding in findings],
            }
        )


class ResumeRequest(BaseModel):
    """The answer to the review a run waits at."""

    action: Literal["approve", "feedback", "stop"]
    feedback: str | None = Field(default=None, max_length=4000, description="What to change (with feedback).")


@router.post("/runs", status_code=201, response_model=EdaRun, responses={**responses(413, 415), 201: STREAM})
async def start_run(
    request: Request,
    eda: Eda,
    user: User,
    file: DataFile,
    goal: Annotated[str | None, Form(max_length=2000, description="What the analysis is for.")] = None,
    model: ModelSpec = None,
    sheet: Annotated[
        str | None,
        Form(max_length=200, description="For a workbook: the sheet to analyse (default: the one the goal names)."),
    ] = None,
) -> Any:
    """Validate, profile and plan an uploaded table; the run then waits for the plan review."""

    def work(on_event: Listener | None) -> EdaRun:
        view = eda.start_from_upload(
            file.filename,
            file.file,
            goal=stripped(goal),
            model=model,
            user_id=user,
            on_event=on_event,
            sheet=stripped(sheet),
        )
        return EdaRun.public(view)

    return await respond(request, work, status_code=201)


@router.get("/runs")
async def list_runs(eda: Eda, user: User) -> list[EdaRunSummary]:
    """Your EDA runs, newest first, with where each stands."""
    return await run_in_threadpool(eda.list, user_id=user)


@router.get("/runs/{run_id}", responses=responses(404))
async def get_run(run_id: RunId, eda: Eda, user: User) -> EdaRun:
    """A run: its status, what the pending review shows, its plan, findings and report."""
    return EdaRun.public(await run_in_threadpool(eda.get, run_id, user_id=user))


@router.post("/runs/{run_id}/resume", response_model=EdaRun, responses={**responses(404, 409), 200: STREAM})
async def resume_run(run_id: RunId, body: ResumeRequest, request: Request, eda: Eda, user: User) -> Any:
    """Answer the review the run waits at (409 when it waits for none) and run to the next review or the end."""

    def work(on_event: Listener | None) -> EdaRun:
        return EdaRun.public(eda.resume(run_id, body.model_dump(), user_id=user, on_event=on_event))

    return await respond(request, work)


@router.delete("/runs/{run_id}", status_code=204, responses=responses(404))
async def delete_run(run_id: RunId, eda: Eda, user: User) -> Response:
    """Delete a run: its record, its paused state and its files."""
    await run_in_threadpool(eda.delete, run_id, user_id=user)
    return Response(status_code=204)


@router.get(
    "/runs/{run_id}/report",
    status_code=200,
    response_class=OpenFileResponse,
    responses={**responses(404, 409), **file_responses("The report.", *REPORT_TYPES.values())},
)
async def report(run_id: RunId, eda: Eda, user: User, fmt: ReportFormat = "md") -> OpenFileResponse:
    """The run's report (409 before it is written)."""
    file = await run_in_threadpool(eda.report_file, run_id, fmt, user_id=user)
    return OpenFileResponse(file, media_type=REPORT_TYPES[fmt])


@router.get(
    "/runs/{run_id}/artifacts/{name:path}", status_code=200, response_class=OpenFileResponse, responses=responses(404)
)
async def artifact(run_id: RunId, name: str, eda: Eda, user: User) -> OpenFileResponse:
    """A file one of the run's steps wrote (a chart), by its path in the run's workspace."""
    return OpenFileResponse(await run_in_threadpool(eda.artifact, run_id, name, user_id=user))

"""The investigator over HTTP: upload a case archive, follow its progress, read its result, reports and charts."""

from __future__ import annotations

from typing import Annotated, Any, Literal
from urllib.parse import quote

from fastapi import APIRouter, Depends, File, Query, Request, Response, UploadFile
from fastapi.concurrency import run_in_threadpool
from pydantic import Field

from bunseki.api.deps import ModelSpec, User, from_app, hex_id
from bunseki.api.downloads import OpenFileResponse, file_responses, report_links
from bunseki.api.problems import responses
from bunseki.api.streaming import events_response, json_response, stream, wants_events
from bunseki.domain import InvestigationRun, InvestigationSummary, Listener
from bunseki.service.investigation_runs import InvestigationRuns

PREFIX = "/api/v1/investigations"
router = APIRouter(prefix=PREFIX, tags=["investigations"], responses=responses(401, 422))
InvestigationId = Annotated[str, hex_id("investigation")]
Runs = Annotated[InvestigationRuns, Depends(from_app("investigations"))]
REPORT_TYPES = {"md": "text/markdown; charset=utf-8", "html": "text/html; charset=utf-8"}
STREAM = events_response(
    "With `Accept: text/event-stream`: a `status` event, every progress event so far and then "
    "as it comes (`node_started` with `node`, `dataset` and `iteration`), then one `result` event whose data is "
    "the Investigation, or one `error` event whose data is a problem document."
)


class Investigation(InvestigationRun):
    """An investigation as the API shows it: files as URLs of this API, never paths on the server."""

    report_files: dict[str, str] = Field(
        default_factory=dict, description="The summary report's URL per format (md, html) once it is written."
    )

    @classmethod
    def public(cls, view: InvestigationRun) -> Investigation:
        url = f"{PREFIX}/{view.investigation_id}"
        result = view.result
        reports: dict[str, str] = {}
        if result is not None:
            result = dict(result)
            if result.get("report_path"):
                reports = report_links(url, REPORT_TYPES)
            result["report_path"] = reports.get("md")
            if "report_html_path" in result:
                result["report_html_path"] = reports.get("html")
            result["workspace_dir"] = url if result.get("workspace_dir") else None
            result["datasets"] = [
                ds | {"charts": [f"{url}/charts/{quote(chart)}" for chart in ds.get("charts", [])]}
                for ds in result.get("datasets", [])
            ]
        return cls.model_validate(view.model_dump() | {"result": result, "report_files": reports})


@router.post("", status_code=202, response_model=Investigation, responses={**responses(413, 415), 202: STREAM})
async def start_investigation(
    request: Request,
    runs: Runs,
    user: User,
    file: Annotated[UploadFile, File(description="The case: a zip or tar(.gz) archive with its manifest (case.yaml).")],
    model: ModelSpec = None,
) -> Any:
    """Unpack and check the case (422 naming the problem), then investigate it in the background."""
    view = await run_in_threadpool(runs.start_from_upload, file.filename, file.file, model=model, user_id=user)
    if wants_events(request.headers.get("accept")):
        return await _follow(runs, view.investigation_id, user)
    return json_response(Investigation.public(view), status_code=202)


@router.get("")
async def list_investigations(runs: Runs, user: User) -> list[InvestigationSummary]:
    """Your investigations, newest first, with where each stands."""
    return await run_in_threadpool(runs.list, user_id=user)


@router.get("/{investigation_id}", response_model=Investigation, responses={**responses(404), 200: STREAM})
async def get_investigation(investigation_id: InvestigationId, request: Request, runs: Runs, user: User) -> Any:
    """Where an investigation stands, dataset by dataset and agent by agent; its result once it ends."""
    if wants_events(request.headers.get("accept")):
        return await _follow(runs, investigation_id, user)
    return Investigation.public(await run_in_threadpool(runs.get, investigation_id, user_id=user))


@router.get("/{investigation_id}/result", responses=responses(404, 409))
async def result(investigation_id: InvestigationId, runs: Runs, user: User) -> dict[str, Any]:
    """The result as `bunseki investigate --format json` gives it, files as URLs (409 before it ends)."""
    await run_in_threadpool(runs.result, investigation_id, user_id=user)  # Conflict while it runs
    view = await run_in_threadpool(runs.get, investigation_id, user_id=user)
    return Investigation.public(view).result or {}


@router.get(
    "/{investigation_id}/report",
    status_code=200,
    response_class=OpenFileResponse,
    responses={**responses(404, 409), **file_responses("The report.", *REPORT_TYPES.values())},
)
async def report(
    investigation_id: InvestigationId,
    runs: Runs,
    user: User,
    fmt: Annotated[
        Literal["md", "html"], Query(alias="format", description="Markdown, or self-contained HTML.")
    ] = "md",
    dataset: Annotated[
        str | None, Query(max_length=200, description="One dataset's report instead of the summary.")
    ] = None,
) -> OpenFileResponse:
    """The summary report, or one dataset's (409 before the investigation ends)."""
    file = await run_in_threadpool(runs.report_file, investigation_id, fmt, dataset=dataset, user_id=user)
    return OpenFileResponse(file, media_type=REPORT_TYPES[fmt])


@router.get(
    "/{investigation_id}/charts/{name:path}",
    status_code=200,
    response_class=OpenFileResponse,
    responses=responses(404, 409),
)
async def chart(investigation_id: InvestigationId, name: str, runs: Runs, user: User) -> OpenFileResponse:
    """A chart of the result, by the path the result gives."""
    return OpenFileResponse(await run_in_threadpool(runs.chart, investigation_id, name, user_id=user))


@router.delete("/{investigation_id}", status_code=204, responses=responses(404, 409))
async def delete_investigation(investigation_id: InvestigationId, runs: Runs, user: User) -> Response:
    """Delete a finished investigation and its files (409 while it is queued or running)."""
    await run_in_threadpool(runs.delete, investigation_id, user_id=user)
    return Response(status_code=204)


async def _follow(runs: InvestigationRuns, investigation_id: str, user: str | None) -> Response:
    def work(on_event: Listener) -> Investigation:
        return Investigation.public(runs.follow(investigation_id, on_event, user_id=user))

    return await stream(work)

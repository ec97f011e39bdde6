"""The data state (snapshots, restore, reset) and what a session produced (report, artifacts, data)."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Query

from bunseki.api.deps import Language, Service, SessionId, SnapshotId, User
from bunseki.api.downloads import REPORT_TYPES, OpenFileResponse, ReportFormat, file_responses
from bunseki.api.problems import responses
from bunseki.api.routes.sessions import PREFIX
from bunseki.api.schemas import DataStateChange, Snapshot, SnapshotRequest, Step

router = APIRouter(prefix=PREFIX, tags=["data"], responses=responses(401, 404, 422))
DATA_TYPES = {"csv": "text/csv; charset=utf-8", "parquet": "application/vnd.apache.parquet"}


@router.get("/{session_id}/snapshots")
def snapshots(session_id: SessionId, service: Service, user: User) -> list[Snapshot]:
    """The saved states of the data, oldest first."""
    return [Snapshot.model_validate(record) for record in service.snapshots(session_id, user_id=user)]


@router.post("/{session_id}/snapshots", status_code=201, responses=responses(409))
def create_snapshot(session_id: SessionId, body: SnapshotRequest, service: Service, user: User) -> Snapshot:
    """Save the current data under a name, to return to later."""
    return Snapshot.model_validate(service.snapshot(session_id, body.name.strip(), user_id=user))


@router.post("/{session_id}/snapshots/{snapshot_id}/restore", responses=responses(409))
def restore(
    session_id: SessionId, snapshot_id: SnapshotId, service: Service, user: User, language: Language
) -> DataStateChange:
    """Make a snapshot's data the current data (recorded as a step)."""
    step = service.restore(session_id, snapshot_id, user_id=user)
    state = service.data_state(session_id, user_id=user, language=language)["state"]
    return DataStateChange(step=Step.model_validate(step), data_state=state)


@router.post("/{session_id}/reset", responses=responses(409))
def reset(session_id: SessionId, service: Service, user: User, language: Language) -> DataStateChange:
    """Go back to the data as uploaded (recorded as a step)."""
    step = service.reset(session_id, user_id=user)
    state = service.data_state(session_id, user_id=user, language=language)["state"]
    return DataStateChange(step=Step.model_validate(step), data_state=state)


@router.get(
    "/{session_id}/report",
    status_code=200,
    response_class=OpenFileResponse,
    responses=file_responses("The report", *REPORT_TYPES.values()),
)
def report(session_id: SessionId, service: Service, user: User, fmt: ReportFormat = "md") -> OpenFileResponse:
    """The latest report: Markdown, HTML with its charts inside, or a notebook that re-runs the analysis."""
    return OpenFileResponse(service.open_report(session_id, fmt, user_id=user), media_type=REPORT_TYPES[fmt])


@router.get(
    "/{session_id}/artifacts/{name:path}",
    status_code=200,
    response_class=OpenFileResponse,
    responses=file_responses("The file", "image/png", "application/octet-stream"),
)
def artifact(session_id: SessionId, name: str, service: Service, user: User) -> OpenFileResponse:
    """A file a turn produced (a chart, a table) or a report file, by its path in the workspace."""
    return OpenFileResponse(service.open_artifact(session_id, name, user_id=user))


@router.get(
    "/{session_id}/data",
    status_code=200,
    response_class=OpenFileResponse,
    responses=file_responses("The data", *DATA_TYPES.values()),
)
def data(
    session_id: SessionId,
    service: Service,
    user: User,
    fmt: Annotated[
        Literal["csv", "parquet"], Query(alias="format", description="CSV (UTF-8 with BOM, for Excel) or Parquet.")
    ] = "csv",
) -> OpenFileResponse:
    """The current data (after the session's filters, sorts and restores)."""
    return OpenFileResponse(service.open_data(session_id, fmt, user_id=user), media_type=DATA_TYPES[fmt])

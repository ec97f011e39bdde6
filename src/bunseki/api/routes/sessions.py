"""Sessions: upload a data file to start one; list, read and delete them; their messages and steps."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Form, Response

from bunseki.api.deps import DataFile, Language, ModelSpec, Service, SessionId, User, stripped
from bunseki.api.problems import responses
from bunseki.api.schemas import Message, Session, SessionSummary, Step

PREFIX = "/api/v1/analysis/sessions"
router = APIRouter(prefix=PREFIX, tags=["sessions"], responses=responses(401, 422))


@router.post("", status_code=201, responses=responses(409, 413, 415))
def create_session(
    service: Service,
    user: User,
    language: Language,
    file: DataFile,
    title: Annotated[str | None, Form(max_length=200, description="Defaults to the file's name.")] = None,
    model: ModelSpec = None,
    sheet: Annotated[
        str | None,
        Form(max_length=200, description="For a workbook: the sheet to analyse (default: the first)."),
    ] = None,
) -> Session:
    """Start a session on an uploaded data file (its encoding and delimiter are detected)."""
    record = service.create_session_from_upload(
        file.filename,
        file.file,
        title=stripped(title),
        user_id=user,
        model=model,
        max_bytes=service.settings.max_upload_mb << 20,
        sheet=stripped(sheet),
    )
    return Session.of(record, service.data_state(record.id, user_id=user, language=language))


@router.get("")
def list_sessions(service: Service, user: User) -> list[SessionSummary]:
    """Your sessions, the most recently used first."""
    return [SessionSummary.model_validate(record) for record in service.list_sessions(user_id=user)]


@router.get("/{session_id}", responses=responses(404))
def get_session(session_id: SessionId, service: Service, user: User, language: Language) -> Session:
    """A session with the overview of its current data."""
    record = service.get_session(session_id, user_id=user)
    overview = service.data_state(session_id, user_id=user, language=language)
    return Session.of(record, overview, service.turns(session_id, user_id=user))


@router.delete("/{session_id}", status_code=204, responses=responses(404, 409))
def delete_session(session_id: SessionId, service: Service, user: User) -> Response:
    """Delete a session: its messages, steps, snapshots, reports and files."""
    service.delete_session(session_id, user_id=user)
    return Response(status_code=204)


@router.get("/{session_id}/messages", responses=responses(404))
def messages(session_id: SessionId, service: Service, user: User) -> list[Message]:
    """The conversation so far, oldest first; each answer with what its turn's model calls cost."""
    found = service.messages(session_id, user_id=user)
    usage = {turn.id: turn.usage for turn in service.turns(session_id, user_id=user)}
    return [
        Message.of(record, usage.get(record.turn_id) if record.role == "assistant" and record.turn_id else None)
        for record in found
    ]


@router.get("/{session_id}/steps", responses=responses(404))
def steps(session_id: SessionId, service: Service, user: User) -> list[Step]:
    """Every operation on the data (tools, code, snapshots, restores, resets), oldest first."""
    return [Step.model_validate(record) for record in service.steps(session_id, user_id=user)]

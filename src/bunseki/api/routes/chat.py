"""The chat endpoint of an analysis session: one message, one turn; as JSON, or streamed as server-sent events."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import Response

from bunseki.api.deps import Service, SessionId, User
from bunseki.api.problems import responses
from bunseki.api.routes.sessions import PREFIX
from bunseki.api.schemas import Artifact, ChatRequest, ChatResponse, Step, Usage
from bunseki.api.streaming import events_response, stream, wants_events
from bunseki.domain import Event
from bunseki.service import AnalysisService, TurnResult
from bunseki.service.inputs import checked_question

router = APIRouter(prefix=PREFIX, tags=["chat"], responses=responses(401, 404, 409, 413, 422))
STREAM = events_response(
    "With `Accept: text/event-stream`: progress events (turn_started, node_started, decision, "
    "code, execution, tool, node_finished, report, turn_finished), then one `result` event whose data is the "
    "ChatResponse, or one `error` event whose data is a problem document. While a model that streams writes "
    'the answer, `answer_delta` events carry its text as it comes ({"text": ...}); `answer_reset` means '
    "the text so far was discarded (the model is asked again). The `result` event's message is the authority."
)


@router.post("/{session_id}/chat", response_model=ChatResponse, responses={200: STREAM})
async def chat(session_id: SessionId, body: ChatRequest, request: Request, service: Service, user: User) -> Any:
    """Ask one question about the session's current data; the answer's numbers come from executed code.

    A message longer than BUNSEKI_MAX_QUESTION_CHARS is refused with 413 before any work starts."""
    checked_question(body.message, service.settings.max_question_chars)  # before a stream's 200 goes out
    if wants_events(request.headers.get("accept")):
        return await _stream(service, session_id, body.message, user)
    result = await run_in_threadpool(service.run_turn, session_id, body.message, user_id=user)
    return await run_in_threadpool(answer, service, session_id, result)


def answer(service: AnalysisService, session_id: str, result: TurnResult) -> ChatResponse:
    """A turn's result as the chat response: the message, the steps it executed, the report, the files."""
    steps = service.turn_steps(session_id, result.turn_id) if result.turn_id else []
    workspace = result.workspace_dir
    artifacts = []
    for path in result.artifacts:
        name = path.relative_to(workspace).as_posix()
        kind = "image" if path.suffix.lower() in (".png", ".jpg", ".jpeg", ".svg") else "file"
        artifacts.append(Artifact(name=name, kind=kind, url=f"{PREFIX}/{session_id}/artifacts/{name}"))
    return ChatResponse(
        message=result.answer or result.question or result.error or "",
        status="error" if result.status == "running" else result.status,
        steps_executed=[Step.model_validate(step) for step in steps],
        report=result.report,
        artifacts=artifacts,
        data_state=result.data_state,
        usage=Usage.of(result.usage),
    )


async def _stream(service: AnalysisService, session_id: str, message: str, user: str | None) -> Response:
    """Run the turn in a worker thread and relay its events (a client that goes away does not stop it)."""

    def work(on_event: Callable[[Event], None]) -> ChatResponse:
        result = service.run_turn(session_id, message, user_id=user, on_event=on_event)
        return answer(service, session_id, result)

    return await stream(work)

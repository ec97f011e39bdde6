"""The chat endpoint of seed 001: one message, one turn; as JSON, or streamed as server-sent events."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import Response
from fastapi.sse import EventSourceResponse, format_sse_event

from bunseki.api.deps import Service, SessionId, User
from bunseki.api.problems import problem, responses, status_of
from bunseki.api.routes.sessions import PREFIX
from bunseki.api.schemas import Artifact, ChatRequest, ChatResponse, Step
from bunseki.errors import BunsekiError
from bunseki.service import AnalysisService, Event, TurnResult

router = APIRouter(prefix=PREFIX, tags=["chat"], responses=responses(401, 404, 409, 422))
STREAM = {
    "description": "With `Accept: text/event-stream`: progress events (turn_started, node_started, decision, "
    "code, execution, tool, node_finished, report, turn_finished), then one `result` event whose data is the "
    "ChatResponse, or one `error` event whose data is a problem document.",
    "content": {"text/event-stream": {"schema": {"type": "string"}}},
}


@router.post("/{session_id}/chat", response_model=ChatResponse, responses={200: STREAM})
async def chat(session_id: SessionId, body: ChatRequest, request: Request, service: Service, user: User) -> Any:
    """Ask one question about the session's current data; the answer's numbers come from executed code."""
    if "text/event-stream" in request.headers.get("accept", ""):
        return await _stream(service, session_id, body.message, user)
    result = await run_in_threadpool(service.run_turn, session_id, body.message, user_id=user)
    return await run_in_threadpool(answer, service, session_id, result)


def answer(service: AnalysisService, session_id: str, result: TurnResult) -> ChatResponse:
    """A turn's result as seed 001's response: the message, the steps it executed, the report, the files."""
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
        steps_executed=[Step.of(step) for step in steps],
        report=result.report,
        artifacts=artifacts,
        data_state=result.data_state,
    )


async def _stream(service: AnalysisService, session_id: str, message: str, user: str | None) -> Response:
    """Run the turn in a worker thread and relay its events; errors before it starts are plain problems.

    A client that goes away does not stop the turn: it finishes and is recorded like any other.
    """
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[tuple[str, Any]] = asyncio.Queue()

    def put(kind: str, value: Any) -> None:
        loop.call_soon_threadsafe(queue.put_nowait, (kind, value))

    def work() -> None:
        try:
            result = service.run_turn(session_id, message, user_id=user, on_event=lambda event: put("event", event))
            put("result", answer(service, session_id, result))
        except Exception as exc:  # relayed to the client; the service has recorded the turn's end
            put("error", exc)

    task = asyncio.ensure_future(run_in_threadpool(work))
    _running.add(task)
    task.add_done_callback(_running.discard)
    first = await queue.get()
    if first[0] == "error":  # refused before it began (busy, not found): an ordinary error response
        raise first[1]
    return EventSourceResponse(_events(first, queue))


_running: set[asyncio.Future[None]] = set()  # turns whose client may have gone; kept until they end


async def _events(first: tuple[str, Any], queue: asyncio.Queue[tuple[str, Any]]) -> AsyncIterator[bytes]:
    kind, value = first
    while True:
        if kind == "event":
            event: Event = value
            yield _sse(str(event.get("event", "progress")), json.dumps(event, ensure_ascii=False, default=str))
        elif kind == "result":
            yield _sse("result", value.model_dump_json())
            return
        else:
            error: Exception = value
            status = status_of(error) if isinstance(error, BunsekiError) else 500
            detail = str(error) if isinstance(error, BunsekiError) else "the turn failed on the server"
            yield _sse("error", json.dumps(problem(status, detail), ensure_ascii=False))
            return
        kind, value = await queue.get()


def _sse(event: str, data: str) -> bytes:
    return format_sse_event(event=event, data_str=data)

"""Server-sent events for long work: progress events from a worker thread, then the result or a problem.

`respond` is what a route that runs long work returns: the events as they come when the client
accepts them, else the result as JSON once the work is done.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from typing import Any

from fastapi import Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import Response
from fastapi.sse import EventSourceResponse, format_sse_event
from pydantic import BaseModel

from bunseki.api.problems import problem, retry_after, status_of
from bunseki.domain import Event, Listener
from bunseki.errors import BunsekiError

Work = Callable[[Listener], BaseModel]


async def stream(work: Work) -> Response:
    """Run ``work(on_event)`` in a worker thread and relay its events, then a ``result`` event.

    Errors before the first event are raised as ordinary problem responses; later ones end the
    stream with an ``error`` event. A client that goes away does not stop the work.
    """
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[tuple[str, Any]] = asyncio.Queue()

    def put(kind: str, value: Any) -> None:
        loop.call_soon_threadsafe(queue.put_nowait, (kind, value))

    def run() -> None:
        try:
            put("result", work(lambda event: put("event", event)))
        except Exception as exc:  # relayed to the client; the service has recorded how the work ended
            put("error", exc)

    task = asyncio.ensure_future(run_in_threadpool(run))
    _running.add(task)
    task.add_done_callback(_running.discard)
    first = await queue.get()
    if first[0] == "error":  # refused before it began (busy, not found): an ordinary error response
        raise first[1]
    return EventSourceResponse(_events(first, queue))


_running: set[asyncio.Future[None]] = set()  # work whose client may have gone; kept until it ends


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
            detail = str(error) if isinstance(error, BunsekiError) else "the work failed on the server"
            again = retry_after(error) if isinstance(error, BunsekiError) else None  # no header after a 200
            yield _sse("error", json.dumps(problem(status, detail, retry_after=again), ensure_ascii=False))
            return
        kind, value = await queue.get()


def _sse(event: str, data: str) -> bytes:
    return format_sse_event(event=event, data_str=data)


def wants_events(accept: str | None) -> bool:
    return "text/event-stream" in (accept or "")


async def respond(
    request: Request, work: Callable[[Listener | None], BaseModel], *, status_code: int = 200
) -> Response:
    """``work`` streamed (`stream`) when the client accepts events; else run with no listener (nobody
    follows it) and its result sent as JSON with ``status_code``."""
    if wants_events(request.headers.get("accept")):
        return await stream(work)
    return json_response(await run_in_threadpool(work, None), status_code=status_code)


def json_response(result: BaseModel, *, status_code: int) -> Response:
    """``result`` as the JSON body of a response with ``status_code``."""
    return Response(result.model_dump_json(), status_code=status_code, media_type="application/json")


def events_response(description: str) -> dict[str, Any]:
    """The OpenAPI entry of the response a route streams with ``Accept: text/event-stream``."""
    return {"description": description, "content": {"text/event-stream": {"schema": {"type": "string"}}}}

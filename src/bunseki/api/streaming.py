"""Server-sent events for long work: progress events from a worker thread, then the result or a problem."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from typing import Any

from fastapi.concurrency import run_in_threadpool
from fastapi.responses import Response
from fastapi.sse import EventSourceResponse, format_sse_event
from pydantic import BaseModel

from bunseki.api.problems import problem, retry_after, status_of
from bunseki.errors import BunsekiError

Event = dict[str, Any]
Work = Callable[[Callable[[Event], None]], BaseModel]


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

"""A local OpenAI-compatible server that replays scripted replies and records every request.

It speaks just enough of ``POST /v1/chat/completions`` for the real ``openai`` client and
``langchain-openai``: plain content, JSON content (what a ``response_format`` request expects),
tool calls, HTTP errors and replies that come too late, and the faults of a real server: a dropped
connection and a body cut short. A request with ``"stream": true`` is answered as server-sent
chunks, as real servers do; a streamed answer can break off (the stream ends early, or the
connection is reset mid-answer). It binds 127.0.0.1 on a free port.
"""

from __future__ import annotations

import json
import socket
import struct
import threading
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Literal

from pydantic import BaseModel

COMPLETIONS_PATH = "/v1/chat/completions"


@dataclass(frozen=True)
class ScriptedReply:
    """One HTTP answer: a status, a JSON body and how long to wait before sending it."""

    status: int
    body: dict[str, Any]
    delay_s: float = 0.0
    headers: dict[str, str] = field(default_factory=dict)
    fault: Literal["reset", "truncate", "stream_cut", "stream_reset"] | None = None


class FakeOpenAIServer:
    """Replays `ScriptedReply` objects in order; records the JSON body and headers of each request."""

    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self._replies: deque[ScriptedReply] = deque()
        self._lock = threading.Lock()
        self._closing = threading.Event()
        self._http = ThreadingHTTPServer(("127.0.0.1", 0), _handler_for(self))
        self._http.daemon_threads = False  # close() joins the handlers, so nothing outlives a test
        self._thread = threading.Thread(
            target=self._http.serve_forever, kwargs={"poll_interval": 0.01}, name="fake-openai", daemon=True
        )

    @property
    def url(self) -> str:
        """The base URL to give an OpenAI client (``…/v1``)."""
        host, port = self._http.server_address[:2]
        return f"http://{host!s}:{port}/v1"

    # --- scripting ---

    def reply_content(self, text: str, *, delay_s: float = 0.0, finish_reason: str = "stop") -> None:
        """An assistant message whose content is ``text`` ("length": cut off at the token limit)."""
        message = {"role": "assistant", "content": text}
        self._push(200, _completion(message, finish_reason=finish_reason), delay_s)

    def reply_json(self, value: BaseModel | dict[str, Any], *, delay_s: float = 0.0) -> None:
        """An assistant message whose content is the JSON of ``value`` (a ``response_format`` reply)."""
        payload = value.model_dump(mode="json") if isinstance(value, BaseModel) else value
        self.reply_content(json.dumps(payload, ensure_ascii=False), delay_s=delay_s)

    def reply_tool_call(self, name: str, arguments: dict[str, Any] | str) -> None:
        """An assistant message calling tool ``name`` with ``arguments`` (JSON, or raw text)."""
        raw = arguments if isinstance(arguments, str) else json.dumps(arguments, ensure_ascii=False)
        call = {
            "id": f"call_{len(self._replies)}",
            "type": "function",
            "function": {"name": name, "arguments": raw},
        }
        message = {"role": "assistant", "content": None, "tool_calls": [call]}
        self._push(200, _completion(message, finish_reason="tool_calls"), 0.0)

    def reply_error(
        self, status: int, message: str = "scripted failure", *, times: int = 1, retry_after: str | None = None
    ) -> None:
        """An OpenAI-style error body with ``status``, ``times`` times in a row; ``retry_after``: the
        standard header's value (seconds), else OpenAI's millisecond hint."""
        body = {"error": {"message": message, "type": "scripted_error", "param": None, "code": None}}
        # The client honours these hints, so its retries take milliseconds here.
        hints = {"retry-after": retry_after} if retry_after is not None else {"retry-after-ms": "10"}
        for _ in range(times):
            self._push(status, body, 0.0, hints)

    def drop_connection(self, *, times: int = 1) -> None:
        """Close the connection without answering (a server that crashed or reset it)."""
        for _ in range(times):
            with self._lock:
                self._replies.append(ScriptedReply(200, {}, fault="reset"))

    def cut_short(self, *, times: int = 1) -> None:
        """Announce a whole completion, send half of it, and close (a body truncated in transit)."""
        message = {"role": "assistant", "content": '{"next_action": "ask", "question": "どの期間'}
        for _ in range(times):
            with self._lock:
                self._replies.append(ScriptedReply(200, _completion(message), fault="truncate"))

    def break_stream(self, value: BaseModel | dict[str, Any], *, reset: bool = False) -> None:
        """Stream half of the JSON of ``value`` and stop: the stream just ends (no ``[DONE]``), or,
        with ``reset``, the connection is reset mid-answer."""
        payload = value.model_dump(mode="json") if isinstance(value, BaseModel) else value
        message = {"role": "assistant", "content": json.dumps(payload, ensure_ascii=False)}
        with self._lock:
            fault: Literal["stream_reset", "stream_cut"] = "stream_reset" if reset else "stream_cut"
            self._replies.append(ScriptedReply(200, _completion(message), fault=fault))

    def _push(self, status: int, body: dict[str, Any], delay_s: float, headers: dict[str, str] | None = None) -> None:
        with self._lock:
            self._replies.append(ScriptedReply(status, body, delay_s, headers or {}))

    # --- lifecycle ---

    @property
    def unused_replies(self) -> int:
        with self._lock:
            return len(self._replies)

    def start(self) -> FakeOpenAIServer:
        self._thread.start()
        return self

    def close(self) -> None:
        """Stop serving, wake handlers that are still delaying, and wait for all of them."""
        self._closing.set()
        self._http.shutdown()
        self._http.server_close()
        self._thread.join(timeout=5)

    def _next(self, body: dict[str, Any], headers: dict[str, str]) -> ScriptedReply:
        with self._lock:
            self.requests.append(body)
            self.headers.append(headers)
            if self._replies:
                return self._replies.popleft()
        # 418 is not retried by clients, so a missing script shows up at once.
        return ScriptedReply(418, {"error": {"message": "the fake server has no scripted reply left"}})

    def _wait(self, seconds: float) -> bool:
        """Sleep ``seconds`` unless the server closes first; False when it closed."""
        return not self._closing.wait(seconds)


@contextmanager
def fake_openai_server() -> Iterator[FakeOpenAIServer]:
    """A started `FakeOpenAIServer`, closed on exit."""
    server = FakeOpenAIServer().start()
    try:
        yield server
    finally:
        server.close()


def _handler_for(server: FakeOpenAIServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            if self.path != COMPLETIONS_PATH:
                self._send(ScriptedReply(404, {"error": {"message": f"no route {self.path}"}}))
                return
            length = int(self.headers.get("Content-Length", "0"))
            body = json.loads(self.rfile.read(length) or b"{}")
            reply = server._next(body, {name.lower(): value for name, value in self.headers.items()})
            if reply.delay_s and not server._wait(reply.delay_s):
                return
            try:
                if body.get("stream") and reply.status == 200 and reply.fault in (None, "stream_cut", "stream_reset"):
                    self._send_stream(reply, bool((body.get("stream_options") or {}).get("include_usage")))
                else:
                    self._send(reply)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (its timeout) before the late reply was ready

        def _send_stream(self, reply: ScriptedReply, usage: bool) -> None:
            """The completion as server-sent chunks; the connection's end ends the body (HTTP/1.0)."""
            chunks = _stream_chunks(reply.body, usage)
            self.close_connection = True
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.end_headers()
            if reply.fault is not None:
                chunks = chunks[: len(chunks) // 2]
            for chunk in chunks:
                self.wfile.write(f"data: {json.dumps(chunk, ensure_ascii=False)}\n\n".encode())
                self.wfile.flush()
            if reply.fault == "stream_reset":  # RST instead of an orderly close
                self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                self.connection.close()
                return
            if reply.fault is None:
                self.wfile.write(b"data: [DONE]\n\n")

        def _send_fault(self, reply: ScriptedReply, data: bytes) -> None:
            self.close_connection = True
            if reply.fault == "truncate":
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data[: len(data) // 2])
                self.wfile.flush()
            self.connection.shutdown(socket.SHUT_RDWR)

        def _send(self, reply: ScriptedReply) -> None:
            data = json.dumps(reply.body, ensure_ascii=False).encode()
            if reply.fault is not None:
                self._send_fault(reply, data)
                return
            self.send_response(reply.status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            for name, value in reply.headers.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, format: str, *args: Any) -> None:
            """Keep test output clean: requests are recorded in ``server.requests`` instead."""

    return Handler


def _completion(message: dict[str, Any], *, finish_reason: str = "stop") -> dict[str, Any]:
    return {
        "id": "chatcmpl-fake",
        "object": "chat.completion",
        "created": 0,
        "model": "test-model",
        "choices": [{"index": 0, "message": message, "finish_reason": finish_reason, "logprobs": None}],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    }


STREAM_PIECE = 8  # characters of content or arguments per streamed chunk


def _stream_chunks(completion: dict[str, Any], usage: bool) -> list[dict[str, Any]]:
    """The ``chat.completion.chunk`` objects a server streams for ``completion``."""
    choice = completion["choices"][0]
    message = choice["message"]
    deltas: list[dict[str, Any]] = [{"role": "assistant", "content": ""}]
    content = message.get("content") or ""
    deltas += [{"content": content[i : i + STREAM_PIECE]} for i in range(0, len(content), STREAM_PIECE)]
    for index, call in enumerate(message.get("tool_calls") or []):
        head = {"index": index, "id": call["id"], "type": "function", "function": {"name": call["function"]["name"]}}
        deltas.append({"tool_calls": [{**head, "function": {**head["function"], "arguments": ""}}]})
        arguments = call["function"]["arguments"]
        for i in range(0, len(arguments), STREAM_PIECE):
            piece = arguments[i : i + STREAM_PIECE]
            deltas.append({"tool_calls": [{"index": index, "function": {"arguments": piece}}]})
    base = {"id": completion["id"], "object": "chat.completion.chunk", "created": 0, "model": completion["model"]}
    chunks = [{**base, "choices": [{"index": 0, "delta": delta, "finish_reason": None}]} for delta in deltas]
    chunks.append({**base, "choices": [{"index": 0, "delta": {}, "finish_reason": choice["finish_reason"]}]})
    if usage:
        chunks.append({**base, "choices": [], "usage": completion["usage"]})
    return chunks

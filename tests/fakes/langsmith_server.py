"""A local stand-in for the LangSmith API: it accepts whatever the tracer sends and keeps it.

It answers ``GET /info`` with an empty object (no optional features) and every ``POST``
(``/runs``, ``/runs/batch``, ``/runs/multipart``) with 200, recording path, headers and body.
It binds 127.0.0.1 on a free port.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass(frozen=True)
class Received:
    method: str
    path: str
    content_type: str
    body: bytes


class FakeLangSmith:
    """Records every request; ``runs_text`` is what the run uploads carried, decoded for searching."""

    def __init__(self) -> None:
        self.received: list[Received] = []
        self._lock = threading.Lock()
        self._http = ThreadingHTTPServer(("127.0.0.1", 0), _handler_for(self))
        self._thread = threading.Thread(target=self._http.serve_forever, name="fake-langsmith", daemon=True)

    @property
    def url(self) -> str:
        host, port = self._http.server_address[:2]
        return f"http://{host!s}:{port}"

    def uploads(self) -> list[Received]:
        """The POSTs that carry runs."""
        with self._lock:
            return [r for r in self.received if r.method == "POST" and r.path.split("?")[0].startswith("/runs")]

    def runs_text(self) -> str:
        return "\n".join(upload.body.decode("utf-8", "replace") for upload in self.uploads())

    def record(self, received: Received) -> None:
        with self._lock:
            self.received.append(received)


def _handler_for(server: FakeLangSmith) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            server.record(Received("GET", self.path, "", b""))
            self._answer(b"{}")

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length)
            server.record(Received("POST", self.path, self.headers.get("Content-Type", ""), body))
            self._answer(b"{}")

        do_PATCH = do_POST

        def _answer(self, body: bytes) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:
            return

    return Handler


@contextmanager
def fake_langsmith() -> Iterator[FakeLangSmith]:
    server = FakeLangSmith()
    server._thread.start()
    try:
        yield server
    finally:
        server._http.shutdown()
        server._http.server_close()

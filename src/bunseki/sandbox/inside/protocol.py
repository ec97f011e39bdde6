"""Length-prefixed JSON messages over pipes; used by the controller and by the worker.

A frame is a 4-byte big-endian length followed by that many bytes of UTF-8 JSON. The worker
imports this file as a top-level module and the controller as
``bunseki.sandbox.inside.protocol``, so it depends on the standard library only.
"""

from __future__ import annotations

import json
import os
import struct
from typing import Any

HEADER = struct.Struct(">I")
MAX_FRAME = 64 * 1024 * 1024


class ProtocolError(Exception):
    """A frame was malformed or too large."""


def encode(message: dict[str, Any]) -> bytes:
    body = json.dumps(message, ensure_ascii=False, default=str).encode("utf-8")
    if len(body) > MAX_FRAME:
        raise ProtocolError(f"message of {len(body)} bytes exceeds {MAX_FRAME}")
    return HEADER.pack(len(body)) + body


def send(fd: int, message: dict[str, Any]) -> None:
    data = memoryview(encode(message))
    while data:
        written = os.write(fd, data)
        data = data[written:]


def _read_exact(fd: int, size: int) -> bytes | None:
    chunks = []
    remaining = size
    while remaining:
        chunk = os.read(fd, min(remaining, 1 << 20))
        if not chunk:
            return None
        chunks.append(chunk)
        remaining -= len(chunk)
    return b"".join(chunks)


def receive(fd: int) -> dict[str, Any] | None:
    """Block until one message arrives; None when the other end has closed."""
    header = _read_exact(fd, HEADER.size)
    if header is None:
        return None
    (size,) = HEADER.unpack(header)
    if size > MAX_FRAME:
        raise ProtocolError(f"incoming frame of {size} bytes exceeds {MAX_FRAME}")
    body = _read_exact(fd, size)
    if body is None:
        return None
    return decode(body)


def decode(body: bytes) -> dict[str, Any]:
    try:
        message = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ProtocolError(f"frame is not UTF-8 JSON: {exc}") from exc
    if not isinstance(message, dict):
        raise ProtocolError("frame is not a JSON object")
    return message


class FrameBuffer:
    """Accumulates bytes read from a non-blocking pipe and yields complete messages."""

    def __init__(self) -> None:
        self._buffer = bytearray()

    def feed(self, data: bytes) -> list[dict[str, Any]]:
        self._buffer += data
        messages = []
        while len(self._buffer) >= HEADER.size:
            (size,) = HEADER.unpack_from(self._buffer)
            if size > MAX_FRAME:
                raise ProtocolError(f"incoming frame of {size} bytes exceeds {MAX_FRAME}")
            end = HEADER.size + size
            if len(self._buffer) < end:
                break
            messages.append(decode(bytes(self._buffer[HEADER.size : end])))
            del self._buffer[:end]
        return messages

"""Retries for model clients that make none of their own (Ollama's), as an httpx transport.

The OpenAI, Anthropic and Google SDKs retry 408/409/429/5xx, dropped connections and timeouts
with exponential backoff and honour ``Retry-After``; `RetryingTransport` gives an httpx client
the same: the request is sent again, up to ``retries`` more times, while the answer is one of
those statuses or the connection failed before an answer began. A wait that would outlast the
turn's deadline (`bunseki.deadline`) is not taken: the last answer stands.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from email.utils import parsedate_to_datetime

import httpx

from bunseki.deadline import remaining_s

RETRY_STATUSES = frozenset({408, 409, 429, 500, 502, 503, 504})
BACKOFF_S = 0.5  # the first wait; doubled per retry
MAX_WAIT_S = 60.0  # a Retry-After longer than this is not waited for


class RetryingTransport(httpx.BaseTransport):
    """``inner`` (a plain HTTP transport by default), retried on what a retry can fix."""

    def __init__(
        self,
        retries: int,
        *,
        inner: httpx.BaseTransport | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.retries = retries
        self.inner = inner or httpx.HTTPTransport()
        self.sleep = sleep
        self.waits: list[float] = []  # what was waited before each retry, for messages and tests

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        for attempt in range(self.retries + 1):
            last = attempt == self.retries
            try:
                response = self.inner.handle_request(request)
            except httpx.TransportError:  # refused, reset or timed out before an answer began
                if last or not self._wait(backoff(attempt)):
                    raise
                continue
            if response.status_code not in RETRY_STATUSES or last:
                return response
            wait = retry_after(response.headers.get("retry-after"))
            if not self._wait(backoff(attempt) if wait is None else wait):
                return response
            response.close()
        raise AssertionError("unreachable: the last attempt returns or raises")

    def close(self) -> None:
        self.inner.close()

    def _wait(self, seconds: float) -> bool:
        """Sleep before a retry; False (no retry) when the wait is too long for the server's hint
        or for what is left of the turn."""
        left = remaining_s()
        if seconds > MAX_WAIT_S or (left is not None and seconds >= left):
            return False
        self.waits.append(seconds)
        self.sleep(seconds)
        return True


def backoff(attempt: int) -> float:
    """The wait before retry ``attempt + 1`` when the server gave no hint."""
    return float(BACKOFF_S * 2**attempt)


def retry_after(value: str | None) -> float | None:
    """Seconds from a ``Retry-After`` header (seconds or an HTTP date); None if absent or unreadable."""
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())

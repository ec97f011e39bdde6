"""A turn's time limit, set by the service around a turn and checked before each model call.

The limit lives in a context variable rather than in every graph's state, so that brains deep
inside any agent see it without each agent passing it along; LangGraph runs a node in a copy of
the caller's context, so the variable reaches the nodes. A call already under way is bounded by
its own request timeout and token cap, so a turn ends at most one request after its deadline.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from bunseki.errors import ModelTimeoutError


@dataclass(frozen=True)
class _Deadline:
    at: float  # time.monotonic()
    seconds: float


_CURRENT: ContextVar[_Deadline | None] = ContextVar("bunseki_turn_deadline", default=None)


@contextmanager
def turn_deadline(seconds: float) -> Iterator[None]:
    """Model calls inside the block may start during the next ``seconds`` only."""
    token = _CURRENT.set(_Deadline(time.monotonic() + seconds, seconds))
    try:
        yield
    finally:
        _CURRENT.reset(token)


def remaining_s() -> float | None:
    """Seconds left in this turn; None outside a turn."""
    deadline = _CURRENT.get()
    return None if deadline is None else deadline.at - time.monotonic()


def check_deadline() -> None:
    """Raise `ModelTimeoutError` when the turn's time is up (before a model call is sent)."""
    deadline = _CURRENT.get()
    if deadline is not None and time.monotonic() >= deadline.at:
        raise ModelTimeoutError(
            f"the turn's time limit of {deadline.seconds:g} s ran out before the model could be asked again: "
            "ask a narrower question, or raise BUNSEKI_TURN_DEADLINE_S"
        )

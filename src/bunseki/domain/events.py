"""What a running turn or run tells whoever listens: its progress, and its answer as it is written.

An event is a JSON object whose ``event`` names its kind (``node_started``, ``thought``, ``cell``,
``answer_delta``…). The answer's text arrives in ``answer_delta`` events; an ``answer_reset``
discards what came before it, so the deltas after the last reset always join to the answer kept.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

Event = dict[str, Any]
Listener = Callable[[Event], None]


def streamed_answer(events: Iterable[Event]) -> str:
    """The answer text streamed so far: the ``answer_delta`` texts since the last ``answer_reset``."""
    text: list[str] = []
    for event in events:
        if event.get("event") == "answer_reset":
            text.clear()
        elif event.get("event") == "answer_delta":
            text.append(str(event.get("text", "")))
    return "".join(text)


def corrections(streamed: str, final: str) -> list[Event]:
    """What makes listeners who were shown ``streamed`` end with ``final``: nothing when it is the
    same or nothing was shown, else a reset and the final text in one piece."""
    if not streamed or streamed == final:
        return []
    return [{"event": "answer_reset"}, *([{"event": "answer_delta", "text": final}] if final else [])]

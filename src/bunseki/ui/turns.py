"""A question being answered: the turn runs in a thread of its own, the page follows its events.

Streamlit stops a script run whenever the person touches a widget; a turn run inside the script
would be cut off with it. So the service's `run_turn` runs in a worker thread, which collects
the progress events, and each script run shows those collected so far and waits for the rest.
The worker never calls Streamlit.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from bunseki.domain import Event, streamed_answer
from bunseki.service import AnalysisService, TurnResult
from bunseki.ui.texts import Texts

POLL_S = 0.2


@dataclass
class PendingTurn:
    """One question on its way to an answer; ``result`` or ``error`` is set once it is over."""

    session_id: str
    question: str
    events: list[Event] = field(default_factory=list)  # appended by the worker only
    result: TurnResult | None = None
    error: Exception | None = None
    worker: threading.Thread | None = None

    @property
    def done(self) -> bool:
        return self.worker is None or not self.worker.is_alive()

    @property
    def number(self) -> int | None:
        """The turn's number in its session, once the service has recorded it."""
        return next((int(e["turn"]) for e in self.events if e.get("event") == "turn_started"), None)


def start(service: AnalysisService, session_id: str, question: str) -> PendingTurn:
    """Start answering ``question`` in the background."""
    pending = PendingTurn(session_id, question)

    def work() -> None:
        try:
            pending.result = service.run_turn(session_id, question, on_event=pending.events.append)
        except Exception as error:  # the page shows it to the person
            pending.error = error

    pending.worker = threading.Thread(target=work, name=f"bunseki-turn-{session_id[:8]}", daemon=True)
    pending.worker.start()
    return pending


def follow(pending: PendingTurn, texts: Texts) -> None:
    """Show the turn's progress node by node until it is over."""
    status = st.status(texts("working"), expanded=True)
    answer = st.empty()  # the answer as a streaming model writes it, below the progress
    shown = 0
    while True:
        over = pending.done  # read first, so that no event of the last moment is missed
        events = pending.events[shown:]
        shown += len(events)
        with status:
            for event in events:
                label = _progress(event, texts)
                if label:  # every field again: a partial update leaves the box collapsed, marked done
                    status.update(label=label, expanded=True, state="running")
        show_streamed(answer, pending.events[:shown], events)
        if over:
            break
        time.sleep(POLL_S)
    answer.empty()  # the page draws the final answer from the store: it, not the stream, is the authority
    failed = pending.error is not None or (pending.result is not None and pending.result.status == "error")
    status.update(label=texts("failed" if failed else "done"), state="error" if failed else "complete", expanded=False)


def show_streamed(slot: DeltaGenerator, events: list[Event], new: Sequence[Event]) -> None:
    """Draw the answer streamed so far (``events``) in ``slot`` when the ``new`` events changed it."""
    if any(str(event.get("event", "")).startswith("answer_") for event in new):
        slot.markdown(streamed_answer(events))


def _progress(event: Event, texts: Texts) -> str | None:
    """Write one event into the status box; returns a new label for the box, if the event gives one."""
    kind = event.get("event")
    if kind == "node_started":
        label = texts.get(f"node_{event.get('node')}", str(event.get("node"))) + "…"
        st.markdown(f"**{label}**")
        return label
    if kind == "decision":
        action = texts.get(f"action_{event.get('next_action')}", str(event.get("next_action")))
        st.caption(f"→ {action}: {event.get('rationale', '')}")
        if event.get("instruction"):
            st.markdown(f"{texts('instruction')}: {event['instruction']}")
    elif kind == "code":
        st.code(str(event.get("code", "")), language="python")
    elif kind == "execution":
        error = str(event.get("error") or "").strip().splitlines()
        st.caption(
            texts("progress_ok") if event.get("success") else texts("progress_failed", error=error[-1] if error else "")
        )
    elif kind == "tool":
        mark = "✓" if event.get("success") else "✗"
        st.caption(f"{mark} {event.get('summary') or event.get('tool')}")
    elif kind == "report":
        st.caption(f"📄 {event.get('title', '')}")
    elif kind == "error":
        st.warning(str(event.get("error", "")))
    return None

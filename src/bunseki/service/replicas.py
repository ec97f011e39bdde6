"""Several processes (API and UI replicas) serving one session over one store.

What a process keeps open for a session (its runtime: data state, warm sandbox) reflects what that
process saw; another replica may have answered a question or changed the data since. A runtime is
used only while the store has not moved past it, and a turn left running by a process that cannot
be asked (on another machine) is over once it has outlived the longest a turn can take.
"""

from __future__ import annotations

import socket
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from bunseki.owners import alive
from bunseki.settings import Settings
from bunseki.store import SessionRecord, Store, TurnRecord

OWNER_GRACE_S = 60.0  # recording a turn's end takes a moment after its last cell or model call


@dataclass(frozen=True)
class Mark:
    """Where a session's committed history stands: its last turn, its last data-changing step, its model."""

    turn: int
    data_position: int
    model: str


def mark_of(store: Store, session: SessionRecord) -> Mark:
    turns = store.list_turns(session.id)
    steps = store.list_steps(session.id)
    return Mark(
        turn=turns[-1].number if turns else 0,
        data_position=max((step.position for step in steps if step.changes_data), default=0),
        model=session.model,
    )


def behind(mark: Mark, *, seen: Mark | None, data_position: int) -> bool:
    """A runtime is behind the store when a turn began that it did not take part in, the data moved past
    its state, or the session was given another model: its sandbox's variables, its ``df`` or its brain
    could then differ from what was committed. (``seen``: the mark it was opened at, turns it took part
    in added; its data position is the runtime's own state's.)"""
    return seen is None or (seen.turn, seen.model, data_position) != (mark.turn, mark.model, mark.data_position)


def longest_turn_s(settings: Settings) -> float:
    """The most a turn can take: its deadline, then one more cell or one more model request (with retries)."""
    last_call = max(settings.sandbox_timeout_s, settings.llm_timeout_s * (settings.llm_max_retries + 1))
    return settings.turn_deadline_s + last_call + OWNER_GRACE_S


def may_still_run(turn: TurnRecord, settings: Settings, *, now: datetime | None = None) -> bool:
    """Whether a turn recorded as running can still be running somewhere.

    A process on this machine is asked directly; one on another machine cannot be, so its turn is
    taken to run until it has outlived `longest_turn_s` (a replica that died mid-turn then frees
    the session instead of holding it busy for ever).
    """
    if not turn.owner:
        return False
    if turn.owner.split(":", 1)[0] == socket.gethostname():
        return alive(turn.owner)
    elapsed = (now or datetime.now(UTC)) - turn.started_at
    return elapsed <= timedelta(seconds=longest_turn_s(settings))

"""Several processes (API and UI replicas) serving one session over one store.

What a process keeps open for a session (its runtime: data state, warm sandbox) reflects what that
process saw; another replica may have answered a question or changed the data since. A runtime is
used only while the store has not moved past it, and a turn left running by a process that cannot
be asked (on another machine) is over once that process's heartbeat is stale (`heartbeat`).
"""

from __future__ import annotations

import socket
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from bunseki.domain import Session, Turn
from bunseki.owners import alive, process_of
from bunseki.settings import Settings
from bunseki.store import Store

OWNER_GRACE_S = 60.0  # recording a turn's end takes a moment after its last cell or model call


@dataclass(frozen=True)
class Mark:
    """Where a session's committed history stands: its last turn, its last data-changing step, its model."""

    turn: int
    data_position: int
    model: str


def mark_of(store: Store, session: Session) -> Mark:
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


def stale_after_s(settings: Settings) -> float:
    """A heartbeat older than this is of a process that is gone: it missed three beats in a row."""
    return 3 * settings.replica_heartbeat_s


def on_this_host(owner: str) -> bool:
    return owner.split(":", 1)[0] == socket.gethostname()


def beat_ages(store: Store, turns: Iterable[Turn]) -> dict[str, float]:
    """The heartbeat ages (`Store.beat_ages`) of the processes on other machines that own ``turns``;
    no query when there are none (a running turn of this machine is asked about directly)."""
    others = {process_of(turn.owner) for turn in turns if turn.owner and not on_this_host(turn.owner)}
    return store.beat_ages(others) if others else {}


def may_still_run(
    turn: Turn, settings: Settings, *, beats: Mapping[str, float] | None = None, now: datetime | None = None
) -> bool:
    """Whether a turn recorded as running can still be running somewhere.

    A process on this machine is asked directly. One on another machine cannot be; it lives while its
    heartbeat (``beats``: seconds since each process last beat, `beat_ages`) is fresh. Without one the
    turn runs until it has outlived `longest_turn_s`: turns of versions that did not beat, and of a
    process whose database write of its first beat failed (it beats before its first turn), would
    otherwise be taken from a process that may well be running them.
    """
    if not turn.owner:
        return False
    if on_this_host(turn.owner):
        return alive(turn.owner)
    age = (beats or {}).get(process_of(turn.owner))
    if age is not None:
        return age <= stale_after_s(settings)
    elapsed = (now or datetime.now(UTC)) - turn.started_at
    return elapsed <= timedelta(seconds=longest_turn_s(settings))

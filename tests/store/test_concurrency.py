"""Threads writing to one session at once: positions and numbers stay unique, gapless and ordered."""

from __future__ import annotations

import itertools
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from bunseki.domain import Session
from bunseki.errors import Conflict, SessionBusy
from bunseki.store import Store

THREADS = 8
EACH = 15
T = TypeVar("T")


def _all_at_once(work: Callable[[int], T], threads: int = THREADS) -> list[T]:
    """Run work(0) … work(threads - 1) in threads released together; re-raises what they raise."""
    barrier = threading.Barrier(threads)

    def run(index: int) -> T:
        barrier.wait()
        return work(index)

    with ThreadPoolExecutor(threads) as pool:
        return list(pool.map(run, range(threads)))


def test_concurrent_messages_and_steps_get_distinct_positions(store: Store, session: Session) -> None:
    def append(thread: int) -> None:
        for n in range(EACH):
            store.add_message(session_id=session.id, role="user", content=f"{thread}:{n}")
            store.add_step(session_id=session.id, step_type="code", parameters={"thread": thread, "n": n}, result=None)

    _all_at_once(append)

    messages = store.list_messages(session.id)
    steps = store.list_steps(session.id)
    assert [message.position for message in messages] == list(range(1, THREADS * EACH + 1))
    assert [step.position for step in steps] == list(range(1, THREADS * EACH + 1))
    for thread in range(THREADS):  # each thread's appends keep the order it made them in
        assert [m.content for m in messages if m.content.startswith(f"{thread}:")] == [
            f"{thread}:{n}" for n in range(EACH)
        ]
        assert [s.parameters["n"] for s in steps if s.parameters["thread"] == thread] == list(range(EACH))


def test_only_one_of_many_simultaneous_turns_starts(store: Store, session: Session) -> None:
    def start(thread: int) -> str:
        try:
            store.start_turn(session_id=session.id, question=f"質問{thread}", owner=str(thread))
        except SessionBusy:
            return "busy"
        return "started"

    outcomes = _all_at_once(start)
    assert sorted(outcomes) == ["busy"] * (THREADS - 1) + ["started"]
    assert [turn.number for turn in store.list_turns(session.id)] == [1]


def test_turns_started_from_many_threads_are_numbered_without_gaps(store: Store, session: Session) -> None:
    turns_each = 3

    def run_turns(thread: int) -> None:
        started = 0
        while started < turns_each:
            try:
                turn = store.start_turn(session_id=session.id, question=f"{thread}", owner=str(thread))
            except SessionBusy:
                continue
            store.finish_turn(turn.id, status="finalized")
            started += 1

    _all_at_once(run_turns, threads=4)
    turns = store.list_turns(session.id)
    assert [turn.number for turn in turns] == list(range(1, 4 * turns_each + 1))
    assert {turn.status for turn in turns} == {"finalized"}
    for earlier, later in itertools.pairwise(turns):  # they never overlapped
        assert earlier.finished_at is not None
        assert earlier.finished_at <= later.started_at


def test_simultaneous_users_with_one_name_make_one_user(store: Store) -> None:
    def create(_: int) -> str:
        try:
            store.create_user("同名")
        except Conflict:
            return "conflict"
        return "created"

    assert sorted(_all_at_once(create)) == ["conflict"] * (THREADS - 1) + ["created"]
    assert [user.name for user in store.list_users()] == ["同名"]

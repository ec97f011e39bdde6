"""`Heartbeat`: this process records in each database it answers questions in that it lives.

A replica on another machine cannot ask this one's /proc; it reads the record's age instead
(`replicas.may_still_run`). One thread per process, however many services it has: services join
before their first turn and leave when they close; the thread runs only while some service is in,
so a process that never answers a question (``bunseki sessions list``) never starts it.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass

from bunseki.errors import BunsekiError
from bunseki.owners import process_owner
from bunseki.store import Store

log = logging.getLogger("bunseki.heartbeat")
STOP_WAIT_S = 10.0  # a beat in flight when the last service leaves ends by then (its database's timeouts)


@dataclass(frozen=True)
class _Member:
    store: Store
    every_s: float


class Heartbeat:
    """Beats for the services that joined, one row per database (the process is one replica there)."""

    def __init__(self, owner: Callable[[], str] = process_owner) -> None:
        self._owner = owner  # this process, as turns name it (host:pid:start-time)
        self._members: dict[str, _Member] = {}  # by service
        self._lock = threading.Lock()  # held while beating too: a row is never written after its delete
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()

    def join(self, member: str, store: Store, every_s: float) -> None:
        """Beat into ``store`` every ``every_s`` for ``member`` (a service) until it leaves; the first
        beat has landed when this returns, so a turn recorded next is never without one."""
        with self._lock:
            if member in self._members:
                return
            self._members[member] = _Member(store, every_s)
            self._beat(store)
            if self._thread is None:
                self._stop = threading.Event()
                self._thread = threading.Thread(
                    target=self._run, args=(self._stop,), name="bunseki-heartbeat", daemon=True
                )
                self._thread.start()

    def leave(self, member: str) -> None:
        """``member`` stops; the last one in a database deletes the row, the last one of all stops the thread."""
        with self._lock:
            gone = self._members.pop(member, None)
            if gone is None:
                return
            if not any(other.store.where == gone.store.where for other in self._members.values()):
                try:
                    gone.store.forget_replica(self._owner())
                except BunsekiError as error:  # unreachable: the row goes stale, then is forgotten
                    log.warning("could not remove this process's heartbeat: %s", error)
            thread, stop = (self._thread, self._stop) if not self._members else (None, None)
            if thread is not None:
                self._thread = None
        if thread is not None and stop is not None:
            stop.set()
            thread.join(STOP_WAIT_S)

    def running(self) -> bool:
        """Whether the thread runs (only while a service is in)."""
        with self._lock:
            return self._thread is not None

    def members(self) -> set[str]:
        with self._lock:
            return set(self._members)

    def _run(self, stop: threading.Event) -> None:
        while True:
            with self._lock:
                every_s = min((member.every_s for member in self._members.values()), default=None)
            if every_s is None or stop.wait(every_s):
                return
            with self._lock:
                if stop.is_set():
                    return
                stores = {member.store.where: member.store for member in self._members.values()}
                for store in stores.values():
                    self._beat(store)

    def _beat(self, store: Store) -> None:
        try:
            store.beat(self._owner())
        except BunsekiError as error:  # the database is away: try at the next beat; the turn's own writes fail
            log.warning("could not record this process's heartbeat: %s", error)


HEARTBEAT = Heartbeat()  # the process's one

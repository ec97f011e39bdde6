"""Processes that start together on a new database all get their checkpoint tables.

Two API replicas started at once used to hang for good on PostgreSQL: the first held the setup
lock while LangGraph's CREATE INDEX CONCURRENTLY, on another of its connections, waited for every
open snapshot to end, including the second's, which was a statement waiting for that lock.
"""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest

from bunseki.store.checkpoints import open_checkpointer

pytestmark = pytest.mark.postgres


@pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)
def test_processes_opening_the_checkpointer_at_once_all_get_their_tables(database_url: str) -> None:
    opened: list[Any] = []
    errors: list[BaseException] = []
    start = threading.Barrier(3)

    def open_one() -> None:
        start.wait()
        try:
            with open_checkpointer(database_url) as saver:
                opened.append(saver.get_tuple({"configurable": {"thread_id": "none"}}))
        except BaseException as error:  # reported below, with the other threads' outcome
            errors.append(error)

    threads = [threading.Thread(target=open_one, daemon=True) for _ in range(3)]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + 60  # each takes well under a second; a deadlock never ends
    for thread in threads:
        thread.join(timeout=max(0.0, deadline - time.monotonic()))

    assert not [thread for thread in threads if thread.is_alive()], "opening the checkpointer hung"
    assert not errors and opened == [None, None, None]

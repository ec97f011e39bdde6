"""Pure pieces of the worker, tested without starting one."""

from __future__ import annotations

import fcntl
import os
import signal
import threading
from pathlib import Path

import pytest

from bunseki.sandbox.inside import landlock, procs, protocol, snapshot
from bunseki.sandbox.inside.outcome import Capture, failure_error, limit_for_error


def test_frames_round_trip_in_any_chunking() -> None:
    messages = [{"op": "run", "code": "print('日本語')"}, {"id": 2, "values": list(range(1000))}]
    stream = b"".join(protocol.encode(message) for message in messages)
    for size in (1, 3, 7, len(stream)):
        buffer = protocol.FrameBuffer()
        received = []
        for start in range(0, len(stream), size):
            received += buffer.feed(stream[start : start + size])
        assert received == messages


def test_frames_over_a_pipe() -> None:
    read, write = os.pipe()
    protocol.send(write, {"hello": "世界"})
    os.close(write)
    assert protocol.receive(read) == {"hello": "世界"}
    assert protocol.receive(read) is None
    os.close(read)


def test_garbage_frames_are_rejected() -> None:
    with pytest.raises(protocol.ProtocolError):
        protocol.FrameBuffer().feed(protocol.HEADER.pack(5) + b"\xff\xfe!!!")
    with pytest.raises(protocol.ProtocolError):
        protocol.FrameBuffer().feed(protocol.HEADER.pack(protocol.MAX_FRAME + 1))


def test_capture_keeps_head_and_tail_within_the_limit() -> None:
    capture = Capture(limit=100)
    for number in range(1000):
        capture.add(f"{number:04d}\n".encode())
    text = capture.text()
    assert text.startswith("0000\n0001\n")
    assert text.rstrip().endswith("0999")
    assert "bytes of output omitted" in text
    assert capture.total == 5000


def test_capture_below_the_limit_is_verbatim() -> None:
    capture = Capture(limit=100)
    capture.add("売上\n".encode())
    assert capture.text() == "売上\n"


def test_limits_are_recognised_from_exceptions() -> None:
    assert limit_for_error({"type": "MemoryError"}) == "memory"
    assert limit_for_error({"type": "OSError", "errno": 27}) == "disk"
    assert limit_for_error({"type": "KeyError"}) is None


def test_limit_errors_say_what_happened_and_what_to_do() -> None:
    limits = {"timeout_s": 30.0, "cpu_s": 30.0, "memory_mb": 512, "disk_mb": 100}
    error = failure_error("wall_time", None, limits)
    assert error["type"] == "TimeLimitExceeded"
    assert "30 s time limit" in error["message"]
    assert "as it was before this cell" in error["message"]
    crashed = failure_error("exit", 11, limits)  # wait status of SIGSEGV
    assert crashed["type"] == "ProcessCrashed"
    assert "SIGSEGV" in crashed["message"]
    exited = failure_error("exit", 3 << 8, limits)  # exit status 3
    assert exited["type"] == "ProcessExited"
    assert "exit status 3" in exited["message"]


def test_descendants_follow_the_process_tree() -> None:
    pid = os.fork()
    if pid == 0:
        try:
            signal.pause()
        finally:
            os._exit(0)
    try:
        assert pid in procs.descendants(os.getpid())
        assert procs.resident_bytes(pid) > 0
        assert procs.cpu_seconds(os.getpid()) > 0
    finally:
        procs.kill_all(os.getpid(), keep=set())
        os.waitpid(pid, 0)
    assert pid not in procs.descendants(os.getpid())


def test_descendants_are_found_below_an_exiting_multi_threaded_parent() -> None:
    """A holder with library threads hands its children to a still-exiting thread when it exits.

    Its leader then shows as a zombie while the children keep its pid as their parent; a walk
    that stopped at zombies lost the whole subtree, so a failed cell's process was never killed
    and the holder waited on it until the cell's time limit (seen after a chart cell).
    """
    anchor, exiting, cell, grandchild = 2, 6, 9, 12
    processes = {1: ("S", 0), anchor: ("S", 1), exiting: ("Z", anchor), cell: ("S", exiting), grandchild: ("R", cell)}
    assert procs.descendants(anchor, processes) == {cell, grandchild}  # the zombie itself: nothing to kill


def test_landlock_abi_is_reported() -> None:
    assert landlock.abi_version() >= 0
    assert landlock.handled_fs(1) == (1 << 13) - 1
    assert landlock.handled_fs(7) == (1 << 16) - 1


def test_a_late_save_of_an_older_state_never_replaces_a_newer_one(tmp_path: Path) -> None:
    assert snapshot.save({"answer": 5}, set(), str(tmp_path), cell=4, generation=5) == []
    assert snapshot.save({"answer": 3}, set(), str(tmp_path), cell=3, generation=3) is None
    assert snapshot.save({"answer": 5}, set(), str(tmp_path), cell=4, generation=5) is None
    assert snapshot.load(str(tmp_path)) == ({"answer": 5}, 4, 5, [])
    assert sorted(os.listdir(tmp_path)) == ["5", "CURRENT", "LOCK"]


def test_saves_wait_for_the_one_under_way(tmp_path: Path) -> None:
    lock = (tmp_path / "LOCK").open("a")
    fcntl.flock(lock, fcntl.LOCK_EX)  # a saver is writing
    saver = threading.Thread(target=snapshot.save, args=({"answer": 7}, set(), str(tmp_path), 7, 8))
    saver.start()
    saver.join(0.3)
    assert saver.is_alive()
    assert snapshot.load(str(tmp_path))[0] == {}
    lock.close()
    saver.join(10)
    assert snapshot.load(str(tmp_path)) == ({"answer": 7}, 7, 8, [])


def test_snapshots_of_before_generations_still_load(tmp_path: Path) -> None:
    (tmp_path / "3").mkdir()
    (tmp_path / "3" / "manifest.json").write_text('{"cell": 3, "names": {}, "lost": ["f"]}')
    (tmp_path / "CURRENT").write_text("3")
    assert snapshot.load(str(tmp_path)) == ({}, 3, 3, ["f"])


def test_start_time_tells_a_process_from_a_later_one_with_its_pid() -> None:
    pid = os.fork()
    if pid == 0:
        try:
            signal.pause()
        finally:
            os._exit(0)
    try:
        assert procs.start_time(pid) is not None
    finally:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
    assert procs.start_time(pid) is None


class CappedFork:
    """fork() under a process cap that is freed after ``busy`` attempts (never, when None)."""

    def __init__(self, busy: int | None) -> None:
        self.busy, self.attempts = busy, 0

    def __call__(self) -> int:
        self.attempts += 1
        if self.busy is None or self.attempts <= self.busy:
            raise BlockingIOError(11, "Resource temporarily unavailable")
        return 4242


def test_a_fork_waits_out_a_process_cap_being_freed(monkeypatch: pytest.MonkeyPatch) -> None:
    fork = CappedFork(busy=3)
    monkeypatch.setattr(procs.os, "fork", fork)
    assert procs.fork_when_allowed(within_s=5) == 4242
    assert fork.attempts == 4


def test_a_starting_worker_gives_up_on_a_cap_that_stays(monkeypatch: pytest.MonkeyPatch) -> None:
    fork = CappedFork(busy=None)
    monkeypatch.setattr(procs.os, "fork", fork)
    with pytest.raises(BlockingIOError):
        procs.fork_when_allowed(within_s=0.3)
    assert 2 <= fork.attempts <= 5  # it tried again, then reported why it could not start

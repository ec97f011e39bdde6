"""Fencing in the storage path: which epoch directory an instance restores from, and what it prunes."""

from __future__ import annotations

import os
from pathlib import Path

from bunseki.sandbox import epochs, isolation
from bunseki.sandbox.inside import snapshot
from bunseki.sandbox.models import IsolationReport


def save(instance: Path, generation: int, **variables: object) -> None:
    """A save as an instance's saver makes it (after cell ``generation``)."""
    assert snapshot.save(dict(variables), set(), str(epochs.state_dir(instance)), generation, generation) == []


def restored(instance: Path) -> dict[str, object]:
    return snapshot.load(str(epochs.state_dir(instance)))[0]


def test_the_first_epoch_starts_empty(tmp_path: Path) -> None:
    opened = epochs.open_epoch(tmp_path, 1)

    assert opened == epochs.Opened(epochs.directory(tmp_path, 1), None, -1)
    assert sorted(entry.name for entry in opened.directory.iterdir()) == ["inputs", "state"]
    assert restored(opened.directory) == {}


def test_an_instance_restores_the_newest_earlier_epoch_and_never_a_newer_one(tmp_path: Path) -> None:
    save(epochs.open_epoch(tmp_path, 3).directory, 1, x="three")
    save(epochs.open_epoch(tmp_path, 5).directory, 2, x="five")
    save(epochs.open_epoch(tmp_path, 9).directory, 4, x="nine")  # a newer epoch: not ours to read

    opened = epochs.open_epoch(tmp_path, 7)

    assert (opened.source, opened.restored_generation) == (5, 2)
    assert restored(opened.directory) == {"x": "five"}
    assert snapshot.load(str(epochs.state_dir(opened.directory)))[1] == 2  # the cell it was saved after


def test_what_an_old_instance_saves_after_the_new_one_opened_is_never_read_again(tmp_path: Path) -> None:
    old = epochs.open_epoch(tmp_path, 1).directory
    save(old, 1, x=1)
    new = epochs.open_epoch(tmp_path, 2)

    save(old, 2, x="old")  # the old saver commits late (and removes its generation 1, which we linked)
    assert restored(old) == {"x": "old"}
    assert restored(new.directory) == {"x": 1}
    assert not (epochs.state_dir(old) / "1").exists()

    save(new.directory, 2, x="new")  # the same generation number as the old one's: ours, not theirs
    later = epochs.open_epoch(tmp_path, 3)
    assert later.source == 2
    assert restored(later.directory) == {"x": "new"}


def test_a_start_that_died_half_way_is_neither_restored_from_nor_in_the_way(tmp_path: Path) -> None:
    save(epochs.open_epoch(tmp_path, 1).directory, 1, x=1)
    dead = epochs.root(tmp_path) / "epoch-2.partial"
    (dead / "state").mkdir(parents=True)  # epoch 2 died while restoring: its name never appeared
    (dead / "state" / "junk").write_text("half")

    assert epochs.existing(tmp_path).keys() == {1}
    assert epochs.open_epoch(tmp_path, 3).source == 1
    retry = epochs.open_epoch(tmp_path, 2)  # (the same epoch opened again replaces its leftover)
    assert not dead.exists()
    assert restored(retry.directory) == {"x": 1}


def test_opening_the_same_epoch_again_keeps_what_it_saved(tmp_path: Path) -> None:
    save(epochs.open_epoch(tmp_path, 1).directory, 1, x=1)
    own = epochs.open_epoch(tmp_path, 2).directory
    save(own, 2, x=2)

    again = epochs.open_epoch(tmp_path, 2)

    assert again == epochs.Opened(own, None, 2)
    assert restored(own) == {"x": 2}


def test_a_snapshot_that_is_named_but_missing_restores_nothing_as_loading_would(tmp_path: Path) -> None:
    old = epochs.open_epoch(tmp_path, 1).directory
    save(old, 1, x=1)
    (epochs.state_dir(old) / "1" / "0.pkl").unlink()  # broken, and it stays so (no saver replaces it)

    opened = epochs.open_epoch(tmp_path, 2)

    assert opened.restored_generation == -1
    assert restored(opened.directory) == {}


def test_reset_state_is_what_the_next_epoch_restores_not_an_older_one(tmp_path: Path) -> None:
    save(epochs.open_epoch(tmp_path, 1).directory, 1, x=1)
    second = epochs.open_epoch(tmp_path, 2).directory
    (second / "inputs" / "df.pkl").write_bytes(b"frame")

    epochs.clear(second)  # a reset of epoch 2

    assert sorted(entry.name for entry in second.iterdir()) == ["inputs", "state"]
    assert not any((second / "inputs").iterdir())
    third = epochs.open_epoch(tmp_path, 3)
    assert (third.source, third.restored_generation) == (2, -1)
    assert restored(third.directory) == {}


def test_pruning_removes_only_earlier_epochs_and_keeps_the_source_until_asked(tmp_path: Path) -> None:
    for number in (1, 2, 4, 6):
        epochs.open_epoch(tmp_path, number)
    (epochs.root(tmp_path) / "epoch-3.partial").mkdir()
    (epochs.root(tmp_path) / "epoch-7.partial").mkdir()  # a newer instance starting right now

    assert epochs.prune(tmp_path, 4, keep=(2,)) == [1]

    assert epochs.existing(tmp_path).keys() == {2, 4, 6}
    assert sorted(entry.name for entry in epochs.root(tmp_path).iterdir()) == [
        "epoch-2",
        "epoch-4",
        "epoch-6",
        "epoch-7.partial",
    ]
    assert epochs.prune(tmp_path, 4) == [2]


def test_the_source_may_go_once_the_instance_committed_a_save_of_its_own(tmp_path: Path) -> None:
    save(epochs.open_epoch(tmp_path, 1).directory, 3, x=1)
    opened = epochs.open_epoch(tmp_path, 2)
    assert not epochs.committed_own_save(opened)

    save(opened.directory, 4, x=2)

    assert epochs.committed_own_save(opened)


def test_restoring_links_the_files_rather_than_copying_them(tmp_path: Path) -> None:
    old = epochs.open_epoch(tmp_path, 1).directory
    save(old, 1, frame=list(range(1000)))
    new = epochs.open_epoch(tmp_path, 2).directory

    original = os.stat(epochs.state_dir(old) / "1" / "0.pkl")
    linked = os.stat(epochs.state_dir(new) / "1" / "0.pkl")
    assert (linked.st_ino, linked.st_dev) == (original.st_ino, original.st_dev)
    assert not (epochs.state_dir(new) / snapshot.LOCK).exists()  # the lock is each instance's own


def test_bwrap_shows_the_other_epochs_read_only_and_only_its_own_writable(tmp_path: Path) -> None:
    report = IsolationReport(tier="bwrap", reason="", run_as_uid=4242, seccomp=True)
    private = ".bunseki/epochs/epoch-7"

    argv = isolation.build_launch(report, tmp_path, "{}", [], private=private).argv

    workspace = argv.index("/workspace")
    epochs_root = argv.index("/workspace/.bunseki/epochs")
    own = argv.index(f"/workspace/{private}")
    assert argv[workspace - 2 : workspace] == ["--bind", str(tmp_path)]
    assert argv[epochs_root - 2 : epochs_root] == ["--ro-bind", str(tmp_path / ".bunseki/epochs")]
    assert argv[own - 2 : own] == ["--bind", str(tmp_path / private)]
    assert workspace < epochs_root < own  # later mounts cover earlier ones
    assert "/workspace/.bunseki/epochs" not in isolation.build_launch(report, tmp_path, "{}", []).argv

"""The start-time check of a Ray deployment's workspace root (shared storage every node sees)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import bunseki as package
from bunseki.errors import ConfigurationError
from bunseki.service.shared_root import check_shared_root, filesystem_type

SOURCE = str(Path(package.__file__).resolve().parents[1])


def mounts(tmp_path: Path, *entries: tuple[str, str]) -> Path:
    table = tmp_path / "mounts"
    space = "\\040"  # how /proc/mounts writes a space
    lines = [f"dev{i} {point.replace(' ', space)} {kind} rw 0 0" for i, (point, kind) in enumerate(entries)]
    table.write_text("\n".join(lines) + "\n")
    return table


def test_a_missing_or_unwritable_root_refuses_to_start(tmp_path: Path) -> None:
    with pytest.raises(ConfigurationError, match=r"does not exist.*BUNSEKI_WORKSPACE_ROOT"):
        check_shared_root(tmp_path / "not-mounted", nodes=3)
    with pytest.raises(ConfigurationError, match="cannot be written"):
        check_shared_root(Path("/proc"), nodes=3)  # no one, not even root, creates files there


def test_a_local_filesystem_is_warned_about_in_both_languages(workspace_root: Path, tmp_path: Path) -> None:
    table = mounts(tmp_path, ("/", "overlay"), (str(workspace_root.parent), "ext4"))
    (warning,) = check_shared_root(workspace_root, nodes=3, mounts=table)
    assert "ext4" in warning and "3 nodes" in warning and "BUNSEKI_WORKSPACE_ROOT" in warning
    assert "共有ストレージ" in warning
    (unknown,) = check_shared_root(workspace_root, nodes=None, mounts=table)  # node count unknown: still said
    assert "more than one node" in unknown
    assert check_shared_root(workspace_root, nodes=1, mounts=table) == []  # one node shares with itself


def test_a_shared_or_unknown_filesystem_is_not_warned_about(workspace_root: Path, tmp_path: Path) -> None:
    deeper = mounts(tmp_path, ("/", "ext4"), (str(workspace_root), "nfs4"), ("/", "tmpfs"))
    assert filesystem_type(workspace_root / "session", deeper) == "nfs4"  # the deepest mount point wins
    assert check_shared_root(workspace_root, nodes=3, mounts=deeper) == []
    assert check_shared_root(workspace_root, nodes=3, mounts=mounts(tmp_path, ("/", "fuse.juicefs"))) == []
    assert check_shared_root(workspace_root, nodes=3, mounts=tmp_path / "unreadable") == []


def test_mount_points_are_matched_whole_and_unescaped(tmp_path: Path) -> None:
    spaced = tmp_path / "shared data"
    spaced.mkdir()
    table = mounts(tmp_path, ("/", "ext4"), (str(spaced), "nfs"), (str(tmp_path / "shared"), "tmpfs"))
    assert filesystem_type(spaced, table) == "nfs"
    assert filesystem_type(tmp_path / "shared-other", table) == "ext4"  # /x/shared does not cover /x/shared-other
    assert filesystem_type(Path("/"), Path("/proc/mounts")) is not None  # this machine's table reads


def test_serve_in_ray_mode_refuses_a_root_that_is_not_there(tmp_path: Path) -> None:
    missing = tmp_path / "nfs-not-mounted"
    env = {
        "PATH": "/usr/bin:/bin",
        "PYTHONPATH": SOURCE,
        "BUNSEKI_SANDBOX_BACKEND": "ray",
        "BUNSEKI_RAY_ADDRESS": "127.0.0.1:1",
    }
    done = subprocess.run(
        [sys.executable, "-m", "bunseki", "serve", "--workspace-root", str(missing)],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert done.returncode == 2, done.stderr  # a configuration problem, before anything listens
    assert "does not exist" in done.stderr and not missing.exists()

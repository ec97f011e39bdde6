"""The start-time check of a Ray deployment's workspace root: storage that every node must see.

A session's sandbox may restart on any node and rebuild the session from its workspace, so the root
must be one shared filesystem mounted at the same path everywhere. What can be checked from one node
is checked: the root exists and is writable (else the server refuses to start); and, best effort, the
filesystem under it is not one that only this machine sees (a warning: the type cannot prove it).
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from bunseki.errors import ConfigurationError

MOUNTS = Path("/proc/mounts")
# Filesystems that live on one machine: another node mounting "the same path" sees other files.
LOCAL_TYPES = frozenset(
    {"ext2", "ext3", "ext4", "xfs", "btrfs", "zfs", "f2fs", "overlay", "tmpfs", "ramfs", "vfat", "exfat", "ntfs3"}
)


def check_shared_root(root: Path, *, nodes: int | None, mounts: Path = MOUNTS) -> list[str]:
    """Warnings about ``root`` as a Ray cluster's workspace root (``nodes``: the cluster's node count, if known).

    Raises ConfigurationError when the root does not exist or cannot be written: nothing would work.
    """
    if not root.is_dir():
        raise ConfigurationError(
            f"the workspace root {root} does not exist: with BUNSEKI_SANDBOX_BACKEND=ray it must be shared storage "
            "mounted at the same path on every node (set BUNSEKI_WORKSPACE_ROOT)"
        )
    try:
        with tempfile.NamedTemporaryFile(dir=root, prefix=".bunseki-write-check-"):
            pass
    except OSError as exc:
        raise ConfigurationError(
            f"the workspace root {root} cannot be written ({exc.strerror}): give this server write access to it"
        ) from exc
    if nodes is not None and nodes <= 1:
        return []  # one node: any filesystem is shared with itself
    fs_type = filesystem_type(root, mounts)
    if fs_type not in LOCAL_TYPES:
        return []  # nfs, cephfs, a FUSE mount, or unknown: nothing here says it is not shared
    cluster = f"the cluster has {nodes} nodes" if nodes is not None else "if the cluster has more than one node"
    return [
        f"The workspace root {root} is on {fs_type}, a filesystem only this machine sees, and {cluster}: a session "
        "restarted on another node would not find its files. Mount shared storage (NFS, CephFS, EFS…) at the same "
        "path on every node and point BUNSEKI_WORKSPACE_ROOT at it.\n"
        f"ワークスペースのルート {root} は {fs_type} 上にあり、このマシンからしか見えません。別のノードで再開した"
        "セッションはファイルを見つけられません。すべてのノードの同じパスに共有ストレージ（NFS、CephFS、EFS など）を"
        "マウントし、BUNSEKI_WORKSPACE_ROOT にそのパスを指定してください。"
    ]


def filesystem_type(path: Path, mounts: Path = MOUNTS) -> str | None:
    """The type of the filesystem ``path`` lives on, from the mount table (None when it cannot be read)."""
    try:
        lines = mounts.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return None
    target = os.path.realpath(path)
    best, found = -1, None
    for line in lines:
        fields = line.split()
        if len(fields) < 3:
            continue
        point = _unescape(fields[1])
        inside = target == point or target.startswith(point.rstrip("/") + "/")
        if inside and len(point) >= best:  # the deepest mount wins; a later one of equal depth covers an earlier one
            best, found = len(point), fields[2]
    return found


def _unescape(field: str) -> str:
    """Mount points in /proc/mounts write space, tab, newline and backslash as octal escapes."""
    for code, char in (("\\040", " "), ("\\011", "\t"), ("\\012", "\n"), ("\\134", "\\")):
        field = field.replace(code, char)
    return field

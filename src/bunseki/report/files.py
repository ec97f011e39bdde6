"""Reading a file that cell code may have planted in the workspace, without ever leaving it.

Cell code controls everything under the workspace, so a path it hands us may be a symlink, a
``../`` escape, a FIFO or a huge file. We walk the path one component at a time with ``openat``
and ``O_NOFOLLOW``, so no symlink is followed anywhere and a swap between check and open cannot
redirect the read either.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path, PurePosixPath

_DIRECTORY_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
# O_NONBLOCK: opening a FIFO must not hang; fstat then refuses it as not a regular file.
_FILE_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC


def read_workspace_file(workspace: Path, relative: str, *, max_bytes: int) -> bytes | None:
    """The bytes of the regular file ``workspace/relative``, or None if it is missing or refused.

    Refused: absolute paths, ``..`` components, a symlink anywhere below the workspace, anything
    that is not a regular file, and files larger than ``max_bytes``.
    """
    parts = _parts(relative)
    if parts is None:
        return None
    opened: list[int] = []
    try:
        opened.append(os.open(os.path.realpath(workspace), _DIRECTORY_FLAGS))
        for name in parts[:-1]:
            opened.append(os.open(name, _DIRECTORY_FLAGS, dir_fd=opened[-1]))
        opened.append(os.open(parts[-1], _FILE_FLAGS, dir_fd=opened[-1]))
        return _read_regular(opened[-1], max_bytes)
    except OSError:  # missing, a symlink (ELOOP), not a directory, unreadable: all refusals
        return None
    finally:
        for descriptor in opened:
            os.close(descriptor)


def _parts(relative: str) -> tuple[str, ...] | None:
    """The components of a workspace-relative path, or None if it could point elsewhere."""
    if not relative or "\0" in relative:
        return None
    path = PurePosixPath(relative)
    if path.is_absolute() or ".." in path.parts or not path.parts:
        return None
    return path.parts


def _read_regular(descriptor: int, max_bytes: int) -> bytes | None:
    """Read an open file whole if it is a regular file of at most ``max_bytes``."""
    info = os.fstat(descriptor)
    if not stat.S_ISREG(info.st_mode) or info.st_size > max_bytes:
        return None
    chunks: list[bytes] = []
    remaining = max_bytes + 1  # one byte more tells a file that grew past the limit
    while remaining > 0:
        chunk = os.read(descriptor, min(remaining, 1 << 20))
        if not chunk:
            break
        chunks.append(chunk)
        remaining -= len(chunk)
    data = b"".join(chunks)
    return data if len(data) <= max_bytes else None

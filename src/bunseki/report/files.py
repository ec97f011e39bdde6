"""Opening a file that cell code may have planted in the workspace, without ever leaving it.

Cell code controls everything under the workspace, so a path it hands us may be a symlink, a
``../`` escape, a FIFO or a huge file. We walk the path one component at a time with ``openat``
and ``O_NOFOLLOW``, so no symlink is followed anywhere, and we hand out the open file itself: a
swap after the open cannot redirect the read, because nothing looks the name up again.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path, PurePosixPath
from typing import BinaryIO

_DIRECTORY_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
# O_NONBLOCK: opening a FIFO must not hang; fstat then refuses it as not a regular file.
_FILE_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC


def open_workspace_file(workspace: Path, relative: str) -> BinaryIO:
    """The regular file ``workspace/relative``, open for reading; OSError if it is missing or refused.

    Refused: absolute paths, ``..`` components, a symlink anywhere below the workspace (ELOOP or
    ENOTDIR), and anything that is not a regular file. The caller closes the file.
    """
    parts = _parts(relative)
    if parts is None:
        raise OSError(errno.EINVAL, "not a path inside the workspace", relative)
    directory = os.open(os.path.realpath(workspace), _DIRECTORY_FLAGS)
    try:
        for name in parts[:-1]:
            inner = os.open(name, _DIRECTORY_FLAGS, dir_fd=directory)
            os.close(directory)
            directory = inner
        descriptor = os.open(parts[-1], _FILE_FLAGS, dir_fd=directory)
    finally:
        os.close(directory)
    try:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            raise OSError(errno.EINVAL, "not a regular file", relative)
        os.set_blocking(descriptor, True)  # O_NONBLOCK was only for the open
        return open(descriptor, "rb", closefd=True)
    except BaseException:
        os.close(descriptor)
        raise


def read_workspace_file(workspace: Path, relative: str, *, max_bytes: int) -> bytes | None:
    """The bytes of the regular file ``workspace/relative``, or None if it is missing or refused.

    Refused as by `open_workspace_file`, and files larger than ``max_bytes``.
    """
    try:
        with open_workspace_file(workspace, relative) as handle:
            return _read_limited(handle, max_bytes)
    except OSError:  # missing, a symlink (ELOOP), not a directory, unreadable: all refusals
        return None


def _parts(relative: str) -> tuple[str, ...] | None:
    """The components of a workspace-relative path, or None if it could point elsewhere."""
    if not relative or "\0" in relative:
        return None
    path = PurePosixPath(relative)
    if path.is_absolute() or ".." in path.parts or not path.parts:
        return None
    return path.parts


def _read_limited(handle: BinaryIO, max_bytes: int) -> bytes | None:
    """Read an open regular file whole if it is at most ``max_bytes``."""
    if os.fstat(handle.fileno()).st_size > max_bytes:
        return None
    data = handle.read(max_bytes + 1)  # one byte more tells a file that grew past the limit
    return data if len(data) <= max_bytes else None

"""Files the service hands to the CLI, the API and the UI: already open, never a path to open later.

A path checked here and opened by an interface later leaves a window in which cell code can swap
the file for a symlink. So the service opens the file (through `open_workspace_file`, which
follows no link) and hands over the open file; the interfaces only read from it.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import BinaryIO

from bunseki.errors import NotFound
from bunseki.report import open_workspace_file, read_workspace_file

CHUNK_BYTES = 1 << 16


@dataclass
class OpenFile:
    """An open file to serve: its download name, and its size and time when it was opened."""

    name: str
    handle: BinaryIO
    size: int
    modified: float

    @classmethod
    def of(cls, handle: BinaryIO, name: str) -> OpenFile:
        info = os.fstat(handle.fileno())
        return cls(name=name, handle=handle, size=info.st_size, modified=info.st_mtime)

    def read(self) -> bytes:
        """The content as it was when opened (a file that grew since is cut at its size then)."""
        return self.handle.read(self.size)

    def chunks(self) -> Iterator[bytes]:
        """The content in pieces, exactly ``size`` bytes in all (a Content-Length must hold); closes the file."""
        try:
            remaining = self.size
            while remaining > 0:
                chunk = self.handle.read(min(remaining, CHUNK_BYTES))
                if not chunk:
                    break
                remaining -= len(chunk)
                yield chunk
        finally:
            self.close()

    def close(self) -> None:
        self.handle.close()

    def __enter__(self) -> OpenFile:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


def open_in_workspace(workspace: str, relative: str, *, missing: str) -> OpenFile:
    """The file ``relative`` of a workspace, open; NotFound (saying ``missing``) if it is absent or refused."""
    try:
        handle = open_workspace_file(Path(workspace), relative)
    except OSError as error:  # absent, a symlink (ELOOP), a directory, a FIFO: to a caller all the same
        raise NotFound(missing) from error
    try:
        return OpenFile.of(handle, PurePosixPath(relative).name)
    except BaseException:
        handle.close()
        raise


def read_in_workspace(workspace: Path, relative: str, *, max_bytes: int) -> bytes | None:
    """The bytes of a workspace's file to show in place (a report's chart), read as `open_in_workspace`
    opens it; None when it is missing, refused, or larger than ``max_bytes``."""
    return read_workspace_file(workspace, relative, max_bytes=max_bytes)

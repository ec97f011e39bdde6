"""Serving a file the service already opened, with the headers a `FileResponse` would give it.

Starlette's `FileResponse` opens a path itself, later than the service looked at it; this
response reads the open file instead, so what was checked is what is sent.
"""

from __future__ import annotations

import hashlib
from email.utils import formatdate
from urllib.parse import quote

from starlette.background import BackgroundTask
from starlette.responses import StreamingResponse

from bunseki.service import OpenFile


class OpenFileResponse(StreamingResponse):
    """An attachment streamed from an `OpenFile`, which is closed when it is sent (or abandoned)."""

    def __init__(self, file: OpenFile, *, media_type: str) -> None:
        super().__init__(
            file.chunks(),
            media_type=media_type,
            headers=_headers(file),
            background=BackgroundTask(file.close),
        )


def _headers(file: OpenFile) -> dict[str, str]:
    quoted = quote(file.name)
    # RFC 6266: a name that is not plain ASCII goes in filename*, as FileResponse does
    named = f'filename="{file.name}"' if quoted == file.name else f"filename*=utf-8''{quoted}"
    version = f"{file.modified}-{file.size}"
    return {
        "content-disposition": f"attachment; {named}",
        "content-length": str(file.size),
        "last-modified": formatdate(file.modified, usegmt=True),
        "etag": f'"{hashlib.md5(version.encode(), usedforsecurity=False).hexdigest()}"',
    }

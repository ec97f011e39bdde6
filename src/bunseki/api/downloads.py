"""Serving a file the service already opened, with the headers a `FileResponse` would give it, and
what the routes that serve files declare: the formats a report comes in and their media types.

Starlette's `FileResponse` opens a path itself, later than the service looked at it; this
response reads the open file instead, so what was checked is what is sent.
"""

from __future__ import annotations

import hashlib
import mimetypes
from collections.abc import Iterable
from email.utils import formatdate
from typing import Annotated, Any, Literal
from urllib.parse import quote

from fastapi import Query
from starlette.background import BackgroundTask
from starlette.responses import StreamingResponse

from bunseki.service import OpenFile

REPORT_TYPES = {
    "md": "text/markdown; charset=utf-8",
    "html": "text/html; charset=utf-8",
    "ipynb": "application/x-ipynb+json",
}
ReportFormat = Annotated[
    Literal["md", "html", "ipynb"],
    Query(alias="format", description="Markdown, self-contained HTML, or a notebook."),
]


class OpenFileResponse(StreamingResponse):
    """An attachment streamed from an `OpenFile`, which is closed when it is sent (or abandoned);
    its media type guessed from its name unless given."""

    def __init__(self, file: OpenFile, *, media_type: str | None = None) -> None:
        super().__init__(
            file.chunks(),
            media_type=media_type or mimetypes.guess_type(file.name)[0] or "application/octet-stream",
            headers=_headers(file),
            background=BackgroundTask(file.close),
        )


def file_responses(description: str, *types: str) -> dict[int | str, dict[str, Any]]:
    """The OpenAPI entry of a route's file: what it is, and the media types it comes in."""
    return {200: {"description": description, "content": {kind: {} for kind in types}}}


def report_links(url: str, kinds: Iterable[str]) -> dict[str, str]:
    """The URL of a report in each of ``kinds`` (md, html…), for the run or session at ``url``."""
    return {kind: f"{url}/report?format={kind}" for kind in kinds}


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

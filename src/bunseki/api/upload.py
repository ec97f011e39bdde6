"""Uploaded data files: saved under a safe name, never past the size cap."""

from __future__ import annotations

import re
from pathlib import Path
from typing import BinaryIO

from bunseki.data.load import SUPPORTED_SUFFIXES
from bunseki.errors import UnsupportedFileType, UploadTooLarge

CHUNK = 1 << 20
UNSAFE = re.compile(r"[\x00-\x1f\x7f/\\:*?\"<>|]")


def safe_name(filename: str | None) -> str:
    """The file's own name without any directory part or characters a file system dislikes."""
    name = UNSAFE.sub("_", Path((filename or "").replace("\\", "/")).name).strip(" .")
    suffix = Path(name).suffix.lower()
    if suffix not in SUPPORTED_SUFFIXES:
        kinds = ", ".join(SUPPORTED_SUFFIXES)
        raise UnsupportedFileType(
            f"'{filename or ''}' is not a file type Bunseki reads ({suffix or 'no extension'}); send one of: {kinds}"
        )
    stem = Path(name).stem[:150] or "data"
    return stem + suffix


def save_upload(source: BinaryIO, filename: str | None, directory: Path, limit_bytes: int) -> Path:
    """Copy an upload into ``directory``; raises UnsupportedFileType or UploadTooLarge."""
    path = directory / safe_name(filename)
    written = 0
    with path.open("wb") as target:
        while chunk := source.read(CHUNK):
            written += len(chunk)
            if written > limit_bytes:
                raise UploadTooLarge(
                    f"the file is larger than this server accepts ({limit_bytes // (1 << 20)} MB, "
                    "BUNSEKI_MAX_UPLOAD_MB); send a smaller extract, for example as Parquet"
                )
            target.write(chunk)
    return path

"""What people hand the service: uploaded files and typed text, checked before anything is kept."""

from __future__ import annotations

import re
from pathlib import Path, PurePosixPath
from typing import BinaryIO

from bunseki.data.load import SUPPORTED_SUFFIXES
from bunseki.errors import InputError, QuestionTooLong, UnsupportedFileType, UploadTooLarge

UNSAFE_NAME = re.compile(r"[\x00-\x1f\x7f/\\:*?\"<>|]")
CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")  # tabs and line breaks are fine
UPLOAD_SUFFIXES: tuple[str, ...] = SUPPORTED_SUFFIXES  # the file types create_session reads


def upload_name(file_name: str | None) -> str:
    """The uploaded file's own name, without directories or characters file systems refuse."""
    name = UNSAFE_NAME.sub("_", PurePosixPath((file_name or "").replace("\\", "/")).name).strip(" .")
    suffix = PurePosixPath(name).suffix.lower()
    if suffix not in SUPPORTED_SUFFIXES:
        raise UnsupportedFileType(
            f"'{file_name or ''}' is not a file type Bunseki reads ({suffix or 'no extension'}); "
            f"send one of: {', '.join(SUPPORTED_SUFFIXES)}"
        )
    return (PurePosixPath(name).stem[:150] or "data") + suffix


def write_limited(path: Path, source: BinaryIO, max_bytes: int | None) -> None:
    written = 0
    with path.open("wb") as target:
        while chunk := source.read(1 << 20):
            written += len(chunk)
            if max_bytes is not None and written > max_bytes:
                raise UploadTooLarge(
                    f"the file is larger than this server accepts ({max_bytes >> 20} MB, BUNSEKI_MAX_UPLOAD_MB); "
                    "send a smaller extract, for example as Parquet"
                )
            target.write(chunk)


def checked_text(value: str, what: str) -> str:
    """Text a person typed, refused if blank or holding control characters no database keeps alike."""
    if not value.strip():
        raise InputError(f"{what} is empty")
    if CONTROL.search(value):
        raise InputError(f"{what} contains a control character (such as NUL); remove it and try again")
    return value


def checked_question(value: str, limit: int) -> str:
    """A question as `checked_text`, refused when longer than ``limit`` characters (BUNSEKI_MAX_QUESTION_CHARS):
    checked first, so that an over-long question costs nothing (no parsing, no store rows, no model call)."""
    return checked_text(checked_length(value, limit), "the question")


def checked_length(value: str, limit: int) -> str:
    """``value``, or QuestionTooLong when it is longer than ``limit`` characters."""
    if len(value) > limit:
        raise QuestionTooLong(
            f"質問が長すぎます（{len(value):,} 文字、上限 {limit:,} 文字）/ the question is {len(value):,} characters "
            f"long and the limit is {limit:,} (BUNSEKI_MAX_QUESTION_CHARS): shorten it, or ask several questions"
        )
    return value

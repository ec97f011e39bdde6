"""Unpacking an uploaded case archive (zip, tar, tar.gz) safely, and finding its manifest.

An archive comes from whoever can call the API, so each member is checked before it is
written: its name must stay inside the target (no absolute path, no ``..``, no drive letter), it
must be a plain file or folder (no symlink, hardlink, device or FIFO), and the sizes it declares
and the bytes it really unpacks to are both held to the limits (a zip bomb lies about the first).
A refused archive may leave some members unpacked: the caller unpacks into a folder it removes.
"""

from __future__ import annotations

import os
import re
import stat
import tarfile
import zipfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import IO, TypeVar
from zlib import error as zlib_error

from bunseki.errors import CaseArchiveError, UnsupportedFileType, UploadTooLarge

CHUNK = 1 << 16
MANIFEST_SUFFIXES = (".yaml", ".yml")
MANIFEST_STEMS = ("case", "manifest")
_DRIVE = re.compile(r"^[A-Za-z]:")
_Info = TypeVar("_Info", zipfile.ZipInfo, tarfile.TarInfo)


@dataclass(frozen=True)
class ArchiveLimits:
    """How much an archive may unpack to; the compressed upload is capped separately."""

    max_total_bytes: int = 256 << 20
    max_file_bytes: int = 64 << 20
    max_members: int = 500


@dataclass(frozen=True)
class _Member:
    name: str
    is_dir: bool
    size: int
    open: Callable[[], IO[bytes] | None]


def extract_case(archive: Path, target: Path, limits: ArchiveLimits | None = None) -> Path:
    """Unpack ``archive`` into the empty folder ``target``; return the case manifest's path.

    Raises:
        UnsupportedFileType: the file is not a zip or tar archive.
        CaseArchiveError: a member would land outside ``target``, is a link or a device, or no
            manifest (``*.yaml``) is in it.
        UploadTooLarge: too many members, or a member or the whole unpacks to more than the limits.
    """
    limits = limits or ArchiveLimits()
    target.mkdir(parents=True, exist_ok=True)
    with _opened(archive) as members:
        written = 0
        for member in _checked(members, limits):
            path = target.joinpath(*PurePosixPath(member.name).parts)
            try:
                if member.is_dir:
                    path.mkdir(parents=True, exist_ok=True)
                    continue
                path.parent.mkdir(parents=True, exist_ok=True)
                written += _copy(member, path, limits, written)
            except (FileExistsError, NotADirectoryError) as exc:
                raise CaseArchiveError(f"archive member {member.name!r} clashes with another member") from exc
    return find_manifest(target)


def find_manifest(root: Path) -> Path:
    """The case manifest: ``case.yaml`` (or the only YAML file) nearest the top of ``root``.

    Hidden files and macOS's ``__MACOSX`` copies are not candidates.
    """
    found = [
        path
        for path in root.rglob("*")
        if (
            path.suffix.lower() in MANIFEST_SUFFIXES
            # YAML reads JSON, and the seed's example manifest is JSON: case.json or manifest.json
            or (path.suffix.lower() == ".json" and path.stem.lower() in MANIFEST_STEMS)
        )
        and path.is_file()
        and not any(part.startswith((".", "__MACOSX")) for part in path.relative_to(root).parts)
    ]
    if not found:
        raise CaseArchiveError(
            "the archive holds no case manifest: put case.yaml (name, codes, datasets, …) in it / "
            "アーカイブにケースのマニフェスト case.yaml がありません"
        )
    top = min(len(path.relative_to(root).parts) for path in found)
    nearest = sorted(path for path in found if len(path.relative_to(root).parts) == top)
    preferred = [path for path in nearest if path.stem.lower() in MANIFEST_STEMS]
    if len(preferred) == 1 or len(nearest) == 1:
        return (preferred or nearest)[0]
    names = ", ".join(str(path.relative_to(root)) for path in nearest)
    raise CaseArchiveError(f"the archive holds several YAML files ({names}); name the manifest case.yaml")


@contextmanager
def _opened(archive: Path) -> Iterator[Iterator[_Member]]:
    """The archive's members, read lazily from the archive held open for the whole extraction."""
    if zipfile.is_zipfile(archive):
        try:
            with zipfile.ZipFile(archive) as opened_zip:
                yield _zip_members(opened_zip)
        except (zipfile.BadZipFile, EOFError, zlib_error, NotImplementedError) as exc:
            raise UnsupportedFileType(f"the zip archive is damaged or uses an unknown compression: {exc}") from exc
    elif _is_tar(archive):
        try:
            with tarfile.open(archive, "r:*") as opened_tar:
                yield _tar_members(opened_tar)
        except (tarfile.TarError, EOFError, zlib_error) as exc:
            raise UnsupportedFileType(f"the tar archive is damaged or truncated: {exc}") from exc
    else:
        raise UnsupportedFileType(
            "the upload is not a zip or tar(.gz) archive; pack the case folder (manifest, code, CSVs) "
            "with zip or tar / アップロードは zip または tar(.gz) のアーカイブにしてください"
        )


def _is_tar(archive: Path) -> bool:
    try:
        return tarfile.is_tarfile(archive)
    except (OSError, tarfile.TarError, EOFError):
        return False


def _zip_members(opened: zipfile.ZipFile) -> Iterator[_Member]:
    for info in opened.infolist():
        kind = stat.S_IFMT(info.external_attr >> 16)  # the unix file type, when a unix zip tool wrote one
        if kind and kind not in (stat.S_IFREG, stat.S_IFDIR):
            raise CaseArchiveError(f"archive member {info.filename!r} is a link or a special file; only files")
        yield _Member(info.filename, info.is_dir(), info.file_size, _opener(opened.open, info))


def _tar_members(opened: tarfile.TarFile) -> Iterator[_Member]:
    for info in opened:
        if info.issym() or info.islnk():
            raise CaseArchiveError(f"archive member {info.name!r} is a link; links are not accepted")
        if not (info.isfile() or info.isdir()):
            raise CaseArchiveError(f"archive member {info.name!r} is a device or special file; only files")
        yield _Member(info.name, info.isdir(), info.size, _opener(opened.extractfile, info))


def _opener(read: Callable[[_Info], IO[bytes] | None], info: _Info) -> Callable[[], IO[bytes] | None]:
    return lambda: read(info)


def _checked(members: Iterator[_Member], limits: ArchiveLimits) -> Iterator[_Member]:
    """Each member's name and declared size checked before its bytes are written."""
    declared = 0
    seen: set[str] = set()
    for count, member in enumerate(members, start=1):
        if count > limits.max_members:
            raise UploadTooLarge(f"the archive has more than {limits.max_members} members; send only the case")
        name = _safe_name(member.name)
        if not name and member.is_dir:  # "./", which `tar -C case .` writes first
            continue
        if not name:
            raise CaseArchiveError(f"archive member {member.name!r} has no name")
        if name in seen and not member.is_dir:
            raise CaseArchiveError(f"archive member {member.name!r} appears twice")
        seen.add(name)
        if member.size > limits.max_file_bytes:
            raise UploadTooLarge(f"archive member {member.name!r} is larger than {limits.max_file_bytes >> 20} MB")
        declared += member.size
        if declared > limits.max_total_bytes:
            raise UploadTooLarge(f"the archive unpacks to more than {limits.max_total_bytes >> 20} MB")
        yield _Member(name, member.is_dir, member.size, member.open)


def _safe_name(name: str) -> str:
    """The member's path without ``./`` and trailing slashes ("" for the top itself); CaseArchiveError if it
    could leave the target."""
    cleaned = name.replace("\\", "/")
    path = PurePosixPath(cleaned)
    if "\0" in name or path.is_absolute() or _DRIVE.match(cleaned) or ".." in path.parts:
        raise CaseArchiveError(f"archive member {name!r} points outside the archive (absolute or '..'); refused")
    return "/".join(part for part in path.parts if part not in ("", "."))


def _copy(member: _Member, path: Path, limits: ArchiveLimits, written_before: int) -> int:
    """Copy a member's real bytes (which may exceed what it declared) under the limits."""
    source = member.open()
    if source is None:
        raise CaseArchiveError(f"archive member {member.name!r} cannot be read")
    written = 0
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
    with source, os.fdopen(descriptor, "wb") as target:
        while chunk := source.read(CHUNK):
            written += len(chunk)
            if written > limits.max_file_bytes:
                raise UploadTooLarge(f"archive member {member.name!r} unpacks to more than its limit")
            if written_before + written > limits.max_total_bytes:
                raise UploadTooLarge(f"the archive unpacks to more than {limits.max_total_bytes >> 20} MB")
            target.write(chunk)
    return written

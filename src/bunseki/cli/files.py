"""Writing an export where the person said, carefully: never over a file unless told, never through a link.

The command line may run as root, so "write where told" must not mean "replace whatever is
there": an existing file needs ``--force``, and a symbolic link at the destination is refused
(`O_NOFOLLOW` also closes the gap between the check and the write).
"""

from __future__ import annotations

import errno
import os
from collections.abc import Iterable
from pathlib import Path

from bunseki.errors import Conflict, InputError


def check_writable(target: Path, *, force: bool) -> None:
    """Refuse, with what to do instead, a destination the export must not or cannot write."""
    if target.is_symlink():
        raise InputError(f"{target} is a symbolic link; Bunseki does not write through links: choose another path")
    if not target.parent.is_dir():
        raise InputError(
            f"cannot write {target}: the folder {target.parent} does not exist; create it or choose another path"
        )
    if target.exists():
        if not target.is_file():
            raise InputError(f"{target} exists and is not a regular file: choose another path")
        if not force:
            raise Conflict(f"{target} already exists: add --force to overwrite it, or choose another path")
    if not os.access(target.parent, os.W_OK):
        raise InputError(f"cannot write in {target.parent}: no permission; choose another folder")


def write_new_file(target: Path, chunks: Iterable[bytes], *, force: bool) -> None:
    """Write ``chunks`` to ``target``: a new file, or (``force``) over a regular file; never through a link."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_NOFOLLOW | (os.O_TRUNC if force else os.O_EXCL)
    try:
        descriptor = os.open(target, flags, 0o666)
    except OSError as exc:
        raise _refusal(target, exc) from exc
    try:
        with os.fdopen(descriptor, "wb") as written:
            for chunk in chunks:
                written.write(chunk)
    except OSError as exc:
        target.unlink(missing_ok=True)  # a half-written export is worse than none
        raise _refusal(target, exc) from exc


def _refusal(target: Path, exc: OSError) -> InputError | Conflict:
    if exc.errno == errno.EEXIST:
        return Conflict(f"{target} already exists: add --force to overwrite it, or choose another path")
    if exc.errno == errno.ELOOP:
        return InputError(f"{target} is a symbolic link; Bunseki does not write through links: choose another path")
    if exc.errno == errno.ENOENT:
        return InputError(f"cannot write {target}: the folder {target.parent} does not exist")
    if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        return InputError(f"cannot write {target}: no permission; choose another path")
    return InputError(f"cannot write {target}: {exc.strerror or exc}")

"""Landlock filesystem, TCP and scope rules through the raw syscalls (Linux ≥ 5.13).

Landlock lets an unprivileged process take away its own access to everything except the paths
it names. Rights a kernel does not know (older ABI) are dropped rather than failing, so the
strongest ruleset the kernel supports is applied. Syscall numbers 444-446 are the same on every
architecture (the generic syscall table).
"""

from __future__ import annotations

import ctypes
import os
import struct

SYS_CREATE_RULESET = 444
SYS_ADD_RULE = 445
SYS_RESTRICT_SELF = 446
CREATE_RULESET_VERSION = 1 << 0
RULE_PATH_BENEATH = 1
PR_SET_NO_NEW_PRIVS = 38

# Filesystem rights, by the ABI that introduced them.
EXECUTE = 1 << 0
WRITE_FILE = 1 << 1
READ_FILE = 1 << 2
READ_DIR = 1 << 3
REMOVE_DIR = 1 << 4
REMOVE_FILE = 1 << 5
MAKE_CHAR = 1 << 6
MAKE_DIR = 1 << 7
MAKE_REG = 1 << 8
MAKE_SOCK = 1 << 9
MAKE_FIFO = 1 << 10
MAKE_BLOCK = 1 << 11
MAKE_SYM = 1 << 12
REFER = 1 << 13  # ABI 2
TRUNCATE = 1 << 14  # ABI 3
IOCTL_DEV = 1 << 15  # ABI 5
NET_BIND_TCP = 1 << 0  # ABI 4
NET_CONNECT_TCP = 1 << 1  # ABI 4
SCOPE_ABSTRACT_UNIX_SOCKET = 1 << 0  # ABI 6
SCOPE_SIGNAL = 1 << 1  # ABI 6

_FS_BY_ABI = {1: (1 << 13) - 1, 2: (1 << 14) - 1, 3: (1 << 15) - 1, 5: (1 << 16) - 1}
FILE_RIGHTS = EXECUTE | WRITE_FILE | READ_FILE | TRUNCATE | IOCTL_DEV

# Named bundles the controller uses when it describes rules.
ACCESS = {
    "r": READ_FILE | READ_DIR,
    "rx": READ_FILE | READ_DIR | EXECUTE,
    "rw": READ_FILE
    | READ_DIR
    | WRITE_FILE
    | REMOVE_DIR
    | REMOVE_FILE
    | MAKE_DIR
    | MAKE_REG
    | MAKE_SYM
    | MAKE_FIFO
    | REFER
    | TRUNCATE,
    "dev": READ_FILE | WRITE_FILE | IOCTL_DEV,
}

_libc = ctypes.CDLL(None, use_errno=True)
_libc.syscall.restype = ctypes.c_long


class LandlockUnavailable(OSError):
    """The kernel has no Landlock, or it is disabled."""


def _syscall(number: int, *args: object) -> int:
    result = int(_libc.syscall(number, *args))
    if result < 0:
        err = ctypes.get_errno()
        raise OSError(err, os.strerror(err))
    return result


def abi_version() -> int:
    """The Landlock ABI the running kernel supports, 0 when it has none."""
    try:
        return _syscall(SYS_CREATE_RULESET, None, ctypes.c_size_t(0), CREATE_RULESET_VERSION)
    except OSError:
        return 0


def handled_fs(abi: int) -> int:
    best = max(version for version in _FS_BY_ABI if version <= abi)
    return _FS_BY_ABI[best]


def restrict(rules: list[tuple[str, str]], *, deny_tcp: bool = True) -> int:
    """Allow only ``rules`` (path, bundle name) from now on, for this process and its children.

    Returns the ABI used. Paths that do not exist are skipped; everything else not named is
    denied. TCP bind/connect is denied from ABI 4, abstract UNIX sockets and signals to
    processes outside the sandbox from ABI 6.
    """
    abi = abi_version()
    if abi < 1:
        raise LandlockUnavailable("Landlock is not supported or is disabled in this kernel")
    fs = handled_fs(abi)
    net = NET_BIND_TCP | NET_CONNECT_TCP if abi >= 4 and deny_tcp else 0
    scoped = SCOPE_ABSTRACT_UNIX_SOCKET | SCOPE_SIGNAL if abi >= 6 else 0
    attr = ctypes.create_string_buffer(struct.pack("=QQQ", fs, net, scoped))
    ruleset = _syscall(SYS_CREATE_RULESET, attr, ctypes.c_size_t(24 if abi >= 6 else 16 if abi >= 4 else 8), 0)
    try:
        for path, bundle in rules:
            _add_path_rule(ruleset, path, ACCESS[bundle] & fs)
        _libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)
        _syscall(SYS_RESTRICT_SELF, ruleset, 0)
    finally:
        os.close(ruleset)
    return abi


def _add_path_rule(ruleset: int, path: str, access: int) -> None:
    try:
        fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
    except FileNotFoundError:
        return
    try:
        if not os.path.isdir(path):
            access &= FILE_RIGHTS  # directory rights on a file are EINVAL
        beneath = ctypes.create_string_buffer(struct.pack("=Qi", access, fd))
        _syscall(SYS_ADD_RULE, ruleset, RULE_PATH_BENEATH, beneath, 0)
    finally:
        os.close(fd)

"""A seccomp filter that removes the kernel interfaces analysis code never needs.

Denied calls fail with EPERM (the code sees an ordinary OSError), never with a kill, so a cell
that touches them gets a readable error. The filter is loaded through libseccomp (Debian's
libseccomp2, via the pyseccomp ctypes binding), which also rejects foreign-architecture and
x32 syscalls so they cannot be used to skip the rules.
"""

from __future__ import annotations

import errno

# Sockets of any family (analysis needs none; socketpair stays allowed for multiprocessing),
# debugging other processes, namespaces and mounts, kernel keyrings, eBPF, io_uring (it can
# open sockets without socket()), perf, userfaultfd, module and kexec loading, and handle-based
# opens that ignore the mount view.
DENIED = (
    "socket",
    "ptrace",
    "process_vm_readv",
    "process_vm_writev",
    "mount",
    "umount2",
    "pivot_root",
    "chroot",
    "unshare",
    "setns",
    "bpf",
    "keyctl",
    "add_key",
    "request_key",
    "perf_event_open",
    "userfaultfd",
    "io_uring_setup",
    "io_uring_enter",
    "io_uring_register",
    "kexec_load",
    "kexec_file_load",
    "init_module",
    "finit_module",
    "delete_module",
    "open_by_handle_at",
    "name_to_handle_at",
    "swapon",
    "swapoff",
    "reboot",
    "syslog",
    "acct",
    "quotactl",
    "fanotify_init",
    "settimeofday",
    "clock_settime",
    "clock_adjtime",
    "adjtimex",
)
CLONE_NEWUSER = 0x10000000


def install() -> None:
    """Load the filter into this process; every later child inherits it."""
    import pyseccomp as seccomp  # imported here: it runs ldconfig to find libseccomp

    deny = seccomp.ERRNO(errno.EPERM)
    rules = seccomp.SyscallFilter(defaction=seccomp.ALLOW)
    for name in DENIED:
        try:
            rules.add_rule(deny, name)
        except (OSError, ValueError):
            continue  # a syscall this architecture does not have
    # New user namespaces through clone(); clone3 hides its flags in memory, so it reports
    # ENOSYS and the C library falls back to clone().
    rules.add_rule(deny, "clone", seccomp.Arg(0, seccomp.MASKED_EQ, CLONE_NEWUSER, CLONE_NEWUSER))
    rules.add_rule(seccomp.ERRNO(errno.ENOSYS), "clone3")
    # kill(-1, …) signals every process the sandbox user may signal; deny it outright.
    minus_one = seccomp.Arg(0, seccomp.MASKED_EQ, 0xFFFFFFFF, 0xFFFFFFFF)
    rules.add_rule(deny, "kill", minus_one)
    rules.load()

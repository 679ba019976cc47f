"""The seccomp filter that reports file operations, run on a small classic-BPF interpreter:
which calls reach the keeper (and stop the bot for a moment), which never do."""

from __future__ import annotations

import struct

import pytest

from prototest.sandbox import linux

ALLOW, NOTIFY = linux.SECCOMP_RET_ALLOW, linux.SECCOMP_RET_USER_NOTIF
O_RDONLY, O_WRONLY, O_RDWR, O_CREAT, O_TRUNC, O_APPEND, O_CLOEXEC = 0, 1, 2, 0o100, 0o1000, 0o2000, 0o2000000


def run(program: bytes, nr: int, arch: int, *args: int) -> int:
    """Classic BPF as seccomp runs it, for the instructions the filter uses."""
    data = struct.pack("<iIQ6Q", nr, arch, 0, *(list(args) + [0] * (6 - len(args))))
    insns = [struct.unpack_from("<HBBI", program, i) for i in range(0, len(program), 8)]
    acc, pc = 0, 0
    while True:
        code, jt, jf, k = insns[pc]
        pc += 1
        if code == 0x20:  # ld [k]
            acc = struct.unpack_from("<I", data, k)[0]
        elif code == 0x54:  # and #k
            acc &= k
        elif code == 0x15:  # jeq #k
            pc += jt if acc == k else jf
        elif code == 0x45:  # jset #k
            pc += jt if acc & k else jf
        elif code == 0x06:  # ret #k
            return k
        else:
            raise AssertionError(f"instruction {code:#x} not expected")


X86 = linux.file_filter((linux.X86_64, linux.I386))
ARM = linux.file_filter((linux.AARCH64,))
A64, A32, AARM = linux.AUDIT_ARCH_X86_64, linux.AUDIT_ARCH_I386, linux.AUDIT_ARCH_AARCH64


@pytest.mark.parametrize("flags,expected", [
    (O_RDONLY, ALLOW), (O_RDONLY | O_CLOEXEC, ALLOW), (O_WRONLY, NOTIFY), (O_RDWR, NOTIFY),
    (O_CREAT, NOTIFY), (O_TRUNC, NOTIFY), (O_WRONLY | O_APPEND | O_CREAT, NOTIFY),
])
def test_open_reaches_the_keeper_only_to_write(flags, expected):
    assert run(X86, 257, A64, -100 & 0xFFFFFFFF, 0x1000, flags) == expected  # openat
    assert run(X86, 2, A64, 0x1000, flags) == expected  # open
    assert run(X86, 295, A32, -100 & 0xFFFFFFFF, 0x1000, flags) == expected  # i386 openat
    assert run(ARM, 56, AARM, -100 & 0xFFFFFFFF, 0x1000, flags) == expected


@pytest.mark.parametrize("nr", [82, 264, 316, 87, 263, 84, 83, 258, 86, 265, 88, 266, 133, 259, 76, 85, 437])
def test_every_call_that_changes_a_file_reaches_the_keeper(nr):
    assert run(X86, nr, A64, 0, 0, 0) == NOTIFY
    assert run(X86, nr | linux.X32_SYSCALL_BIT, A64, 0, 0, 0) == NOTIFY  # the x32 ABI's numbers


@pytest.mark.parametrize("nr", [0, 1, 3, 7, 9, 17, 18, 19, 20, 232, 281, 60, 231, 4, 5, 6, 262])
def test_reads_writes_and_the_rest_never_stop(nr):
    """read, write, close, poll, mmap, pread, pwrite, readv, writev, epoll_wait, epoll_pwait,
    exit, exit_group, stat, fstat, lstat, newfstatat: the timed path never traps."""
    assert run(X86, nr, A64, 0, 0, 0) == ALLOW


def test_an_unknown_abi_is_let_through():
    assert run(X86, 257, 0x12345678, 0, 0, O_WRONLY) == ALLOW


def test_aarch64_numbers():
    for nr in (38, 276, 35, 34, 37, 36, 33, 45, 437):
        assert run(ARM, nr, AARM, 0, 0, 0) == NOTIFY
    for nr in (63, 64, 57, 22, 93, 94):  # read, write, close, epoll_pwait, exit, exit_group
        assert run(ARM, nr, AARM, 0, 0, 0) == ALLOW

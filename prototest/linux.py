"""Linux system calls that the standard library lacks, through ctypes: prctl, signalfd,
unshare and seccomp (filters, user notification).

Each wrapper raises OSError on failure, as `os` functions do, so callers can fall back.
Imported only where a bot is started (ctypes costs a few milliseconds to import).
"""

from __future__ import annotations

import ctypes
import os
import platform
import struct
from dataclasses import dataclass

PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36
PR_SET_NO_NEW_PRIVS = 38

CLONE_NEWNS = 0x00020000
CLONE_NEWUSER = 0x10000000
CLONE_NEWPID = 0x20000000

SFD_NONBLOCK = os.O_NONBLOCK
SFD_CLOEXEC = os.O_CLOEXEC
SIGINFO_SIZE = 128

#: si_code values of a signal that a process sent (kill, sigqueue, tgkill).
SI_USER, SI_QUEUE, SI_TKILL = 0, -1, -6
SI_KERNEL = 0x80

_libc: ctypes.CDLL | None = None


def libc() -> ctypes.CDLL:
    global _libc
    if _libc is None:
        _libc = ctypes.CDLL(None, use_errno=True)
        _libc.syscall.restype = ctypes.c_long
        _libc.prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong]
        _libc.ioctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_void_p]
    return _libc


def _check(result: int, what: str) -> int:
    if result < 0:
        err = ctypes.get_errno()
        raise OSError(err, f"{what}: {os.strerror(err)}")
    return result


def prctl(option: int, arg: int = 0) -> None:
    _check(libc().prctl(option, arg, 0, 0, 0), "prctl")


def unshare(flags: int) -> None:
    _check(libc().unshare(flags), "unshare")


MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_REC, MS_PRIVATE = 2, 4, 8, 0x4000, 1 << 18


def mount(source: str | None, target: str, fstype: str | None, flags: int) -> None:
    def enc(v: str | None) -> bytes | None:
        return v.encode() if v is not None else None

    _check(libc().mount(enc(source), enc(target), enc(fstype), ctypes.c_ulong(flags), None), "mount")


def map_own_ids(uid: int, gid: int) -> None:
    """In a user namespace just made: map our own user and group (as they were before
    it: inside, until mapped, they read as the overflow id) to themselves."""
    for path, text in (("/proc/self/setgroups", "deny"), ("/proc/self/uid_map", f"{uid} {uid} 1"),
                       ("/proc/self/gid_map", f"{gid} {gid} 1")):
        fd = os.open(path, os.O_WRONLY)
        try:
            os.write(fd, text.encode())
        finally:
            os.close(fd)


def new_pid_namespace() -> None:
    """Make the next child of this process the first process (PID 1) of a new PID
    namespace. Root needs nothing more; a user needs a user namespace of its own (where
    the system allows unprivileged ones), which this process then enters, its own user
    and group mapped to themselves."""
    if os.geteuid() == 0:
        unshare(CLONE_NEWPID)
        return
    uid, gid = os.getuid(), os.getgid()
    unshare(CLONE_NEWPID | CLONE_NEWUSER)
    map_own_ids(uid, gid)


# -- signalfd ---------------------------------------------------------------------------

@dataclass(frozen=True)
class SigInfo:
    """What signalfd reports of one signal: who sent it and how."""

    signo: int
    code: int
    pid: int
    uid: int
    status: int

    @property
    def sent_by_a_process(self) -> bool:
        """kill(), sigqueue() or tgkill() (si_pid is then the sender), not the kernel."""
        return self.code in (SI_USER, SI_QUEUE, SI_TKILL)


def signalfd(signals: list[int] | tuple[int, ...] | set[int]) -> int:
    """A non-blocking, close-on-exec signalfd for these signals (block them first)."""
    mask = ctypes.create_string_buffer(128)  # glibc's sigset_t
    lib = libc()
    lib.sigemptyset(mask)
    for signum in signals:
        lib.sigaddset(mask, int(signum))
    return _check(lib.signalfd(-1, mask, SFD_NONBLOCK | SFD_CLOEXEC), "signalfd")


SYS_RT_SIGQUEUEINFO = {"x86_64": 129, "aarch64": 138, "arm64": 138}


def pass_on(pid: int, info: SigInfo) -> None:
    """Send process `pid` the signal `info` describes, naming its first sender (not this
    process) as si_pid: rt_sigqueueinfo with SI_QUEUE, so that the receiver's signalfd
    tells whose it is as if it had come straight from there."""
    nr = SYS_RT_SIGQUEUEINFO.get(platform.machine())
    if nr is None:
        raise OSError(0, f"rt_sigqueueinfo: no system call number known for {platform.machine()}")
    buf = ctypes.create_string_buffer(128)  # siginfo_t: signo, errno, code; the union from byte 16
    struct.pack_into("<iii", buf, 0, info.signo, 0, SI_QUEUE)
    struct.pack_into("<iI", buf, 16, info.pid, info.uid)
    _check(libc().syscall(nr, pid, info.signo, buf), "rt_sigqueueinfo")


def read_signals(fd: int) -> list[SigInfo]:
    """Every pending signal of a signalfd (none when nothing is pending)."""
    out = []
    while True:
        try:
            data = os.read(fd, SIGINFO_SIZE * 16)
        except BlockingIOError:
            return out
        if not data:
            return out
        for offset in range(0, len(data) - SIGINFO_SIZE + 1, SIGINFO_SIZE):
            signo, _errno, code, pid, uid, _fd, _tid, _band, _overrun, _trapno, status = \
                struct.unpack_from("<IiiIIiIIIIi", data, offset)
            out.append(SigInfo(signo, code, pid, uid, status))


# -- seccomp ------------------------------------------------------------------------------

SECCOMP_SET_MODE_FILTER = 1
SECCOMP_GET_NOTIF_SIZES = 3
SECCOMP_FILTER_FLAG_SPEC_ALLOW = 1 << 2
SECCOMP_FILTER_FLAG_NEW_LISTENER = 1 << 3
SECCOMP_RET_ALLOW = 0x7FFF0000
SECCOMP_RET_USER_NOTIF = 0x7FC00000
SECCOMP_USER_NOTIF_FLAG_CONTINUE = 1
SECCOMP_IOCTL_NOTIF_RECV = 0xC0502100
SECCOMP_IOCTL_NOTIF_SEND = 0xC0182101
SECCOMP_IOCTL_NOTIF_ID_VALID = 0x40082102

AUDIT_ARCH_X86_64 = 0xC000003E
AUDIT_ARCH_I386 = 0x40000003
AUDIT_ARCH_AARCH64 = 0xC00000B7
X32_SYSCALL_BIT = 0x40000000

#: The seccomp system call's own number.
SYS_SECCOMP = {"x86_64": 317, "aarch64": 277, "arm64": 277}

#: Flags of open(2) that make it a write: O_WRONLY, O_RDWR, O_CREAT, O_TRUNC (the same
#: values on x86_64, i386 and aarch64; O_TMPFILE implies O_WRONLY or O_RDWR).
OPEN_WRITE_FLAGS = 0o3 | 0o100 | 0o1000


@dataclass(frozen=True)
class Calls:
    """The file system calls of one ABI: name -> (number, index of the path arguments,
    index of the flags argument or None)."""

    arch: int
    table: dict[str, tuple[int, tuple[int, ...], int | None]]
    x32: bool = False

    def name(self, nr: int) -> str | None:
        for name, (number, _, _) in self.table.items():
            if number == nr:
                return name
        return None


def _calls(arch: int, numbers: dict[str, int], x32: bool = False) -> Calls:
    shape = {  # (path arguments, flags argument); the *at calls take a directory fd first
        "open": ((0,), 1), "openat": ((1,), 2), "openat2": ((1,), None), "creat": ((0,), None),
        "rename": ((0, 1), None), "renameat": ((1, 3), None), "renameat2": ((1, 3), None),
        "unlink": ((0,), None), "unlinkat": ((1,), None), "rmdir": ((0,), None),
        "mkdir": ((0,), None), "mkdirat": ((1,), None), "link": ((0, 1), None), "linkat": ((1, 3), None),
        "symlink": ((1,), None), "symlinkat": ((2,), None), "mknod": ((0,), None), "mknodat": ((1,), None),
        "truncate": ((0,), None), "truncate64": ((0,), None),
    }
    return Calls(arch, {name: (nr, *shape[name]) for name, nr in numbers.items()}, x32)


X86_64 = _calls(AUDIT_ARCH_X86_64, {
    "open": 2, "openat": 257, "openat2": 437, "creat": 85, "rename": 82, "renameat": 264,
    "renameat2": 316, "unlink": 87, "unlinkat": 263, "rmdir": 84, "mkdir": 83, "mkdirat": 258,
    "link": 86, "linkat": 265, "symlink": 88, "symlinkat": 266, "mknod": 133, "mknodat": 259,
    "truncate": 76}, x32=True)
I386 = _calls(AUDIT_ARCH_I386, {
    "open": 5, "openat": 295, "openat2": 437, "creat": 8, "rename": 38, "renameat": 302,
    "renameat2": 353, "unlink": 10, "unlinkat": 301, "rmdir": 40, "mkdir": 39, "mkdirat": 296,
    "link": 9, "linkat": 303, "symlink": 83, "symlinkat": 304, "mknod": 14, "mknodat": 297,
    "truncate": 92, "truncate64": 193})
AARCH64 = _calls(AUDIT_ARCH_AARCH64, {
    "openat": 56, "openat2": 437, "renameat": 38, "renameat2": 276, "unlinkat": 35, "mkdirat": 34,
    "linkat": 37, "symlinkat": 36, "mknodat": 33, "truncate": 45})

#: The ABIs a bot may use on each machine (a 64-bit x86 machine also runs 32-bit programs).
ABIS = {"x86_64": (X86_64, I386), "aarch64": (AARCH64,), "arm64": (AARCH64,)}


def machine_abis() -> tuple[Calls, ...]:
    return ABIS.get(platform.machine(), ())


def _insn(code: int, jt: int, jf: int, k: int) -> bytes:
    return struct.pack("<HBBI", code, jt, jf, k)


_LD_W_ABS, _JEQ_K, _JSET_K, _RET_K, _AND_K = 0x20, 0x15, 0x45, 0x06, 0x54


def file_filter(abis: tuple[Calls, ...]) -> bytes:
    """A classic BPF program that asks the supervisor about every call that creates,
    writes, renames or deletes a file, and allows everything else at once: reads,
    writes to open descriptors (the pipes), and open() without a write flag."""
    blocks = []
    for calls in abis:
        body = [_insn(_LD_W_ABS, 0, 0, 0)]  # seccomp_data.nr
        if calls.x32:
            body.append(_insn(_AND_K, 0, 0, ~X32_SYSCALL_BIT & 0xFFFFFFFF))
        flagged = [(nr, flags) for nr, _, flags in calls.table.values() if flags is not None]
        always = [nr for nr, _, flags in calls.table.values() if flags is None]
        # Each flagged call: if nr matches, load its flags and notify when a write flag is set.
        for nr, flags in flagged:
            body += [_insn(_JEQ_K, 0, 4, nr),
                     _insn(_LD_W_ABS, 0, 0, 16 + 8 * flags),  # low 32 bits of args[flags]
                     _insn(_JSET_K, 0, 1, OPEN_WRITE_FLAGS),
                     _insn(_RET_K, 0, 0, SECCOMP_RET_USER_NOTIF),
                     _insn(_RET_K, 0, 0, SECCOMP_RET_ALLOW)]
        for index, nr in enumerate(always):
            body.append(_insn(_JEQ_K, len(always) - index, 0, nr))
        body += [_insn(_RET_K, 0, 0, SECCOMP_RET_ALLOW), _insn(_RET_K, 0, 0, SECCOMP_RET_USER_NOTIF)]
        blocks.append((calls.arch, body))
    program = [_insn(_LD_W_ABS, 0, 0, 4)]  # seccomp_data.arch
    # arch dispatch: jeq arch -> its block (skip the other blocks' lengths)
    offsets, position = [], 0
    for _, body in blocks:
        offsets.append(position)
        position += len(body)
    dispatch = []
    for index, (arch, _) in enumerate(blocks):
        remaining_dispatch = len(blocks) - index  # this jeq and the others, then the allow
        dispatch.append(_insn(_JEQ_K, remaining_dispatch + offsets[index], 0, arch))
    dispatch.append(_insn(_RET_K, 0, 0, SECCOMP_RET_ALLOW))  # an ABI we do not know
    program += dispatch
    for _, body in blocks:
        program += body
    return b"".join(program)


def install_file_filter(code: bytes) -> int:
    """Install a filter built by `file_filter` on the calling process (and its future
    children); return the listener fd the supervisor reads notifications from."""
    nr = SYS_SECCOMP.get(platform.machine())
    if nr is None:
        raise OSError(0, f"seccomp: no system call number known for {platform.machine()}")
    buf = ctypes.create_string_buffer(code, len(code))
    prog = ctypes.create_string_buffer(struct.pack("<HxxxxxxQ", len(code) // 8, ctypes.addressof(buf)))
    lib = libc()
    # SPEC_ALLOW: a filtered process would otherwise get the kernel's speculation
    # mitigations (SSBD, and on some kernels IBPB at every context switch), which slow the
    # bot and whatever shares its core with it: the bot must run as fast as without us.
    flags = SECCOMP_FILTER_FLAG_NEW_LISTENER | SECCOMP_FILTER_FLAG_SPEC_ALLOW
    fd = lib.syscall(nr, SECCOMP_SET_MODE_FILTER, flags, prog)
    if fd < 0 and ctypes.get_errno() == 13:  # EACCES: unprivileged filters need no_new_privs
        prctl(PR_SET_NO_NEW_PRIVS, 1)
        fd = lib.syscall(nr, SECCOMP_SET_MODE_FILTER, flags, prog)
    if fd < 0 and ctypes.get_errno() == 22:  # EINVAL: a kernel older than SPEC_ALLOW (4.17)
        fd = lib.syscall(nr, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER, prog)
    return _check(fd, "seccomp")


@dataclass(frozen=True)
class Notification:
    id: int
    pid: int
    nr: int
    arch: int
    args: tuple[int, ...]


_NOTIF = struct.Struct("<QIIiIQ6Q")
_RESP = struct.Struct("<QqiI")


def receive(listener: int) -> Notification | None:
    """The next notification, or None when its caller is already gone."""
    buf = ctypes.create_string_buffer(_NOTIF.size)
    if libc().ioctl(listener, SECCOMP_IOCTL_NOTIF_RECV, buf) < 0:
        err = ctypes.get_errno()
        if err in (2, 4):  # ENOENT: the caller died meanwhile; EINTR
            return None
        raise OSError(err, f"seccomp notification: {os.strerror(err)}")
    id_, pid, _flags, nr, arch, _ip, *args = _NOTIF.unpack(buf.raw)
    return Notification(id_, pid, nr & 0xFFFFFFFF, arch, tuple(args))


def still_valid(listener: int, id_: int) -> bool:
    """Whether the notification's caller still waits (so its memory was really its)."""
    buf = ctypes.create_string_buffer(struct.pack("<Q", id_))
    return libc().ioctl(listener, SECCOMP_IOCTL_NOTIF_ID_VALID, buf) == 0


def let_it_continue(listener: int, id_: int) -> None:
    """Let the call go on as if no filter had been there."""
    buf = ctypes.create_string_buffer(_RESP.pack(id_, 0, 0, SECCOMP_USER_NOTIF_FLAG_CONTINUE))
    libc().ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, buf)  # ENOENT: the caller is gone

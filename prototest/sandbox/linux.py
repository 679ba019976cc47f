"""Linux system calls that the standard library lacks, through ctypes: prctl, signalfd,
unshare (PID, user, mount and network namespaces), pidfd_getfd and seccomp (filters,
user notification: letting a call go on, or refusing it with an error).

The seccomp filter (`watch_filter`) asks the keeper about the calls it watches, for each
ABI of the machine (x86_64 with its i386 and x32 calls, aarch64): file operations;
socket() of an internet family, connect(), sendto() with an address, sendmsg() (and
i386's socketcall for them); clone, clone3, fork and vfork. Everything else never stops.

Each wrapper raises OSError on failure, as `os` functions do, so callers can fall back.
Imported only where a bot is started (ctypes costs a few milliseconds to import).
"""

from __future__ import annotations

import ctypes
import os
import platform
import signal
import struct
from dataclasses import dataclass, field

PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36
PR_SET_NO_NEW_PRIVS = 38

CLONE_PARENT = 0x00008000
CLONE_NEWNS = 0x00020000
CLONE_NEWUSER = 0x10000000
CLONE_NEWPID = 0x20000000
CLONE_NEWNET = 0x40000000

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


#: clone's system call number (its first argument is the flags on both).
SYS_CLONE = {"x86_64": 56, "aarch64": 220}
_pydll: ctypes.PyDLL | None = None


def can_fork_beside() -> bool:
    return platform.machine() in SYS_CLONE and hasattr(ctypes.pythonapi, "PyOS_AfterFork_Child")


def fork_beside() -> int:
    """os.fork(), except that the child's parent is this process's own parent (clone with
    CLONE_PARENT and SIGCHLD, the child on a copy of the stack as fork's): the interpreter's
    before- and after-fork steps run around it as os.fork runs them, the interpreter lock
    held throughout (a PyDLL call). For a single-threaded process only (prototest's keepers'
    host): no other thread may hold a lock of the C library's at that moment."""
    global _pydll
    nr = SYS_CLONE.get(platform.machine())
    if nr is None:
        raise OSError(38, "clone: no system call number known here")
    if _pydll is None:
        _pydll = ctypes.PyDLL(None, use_errno=True)
        _pydll.syscall.restype = ctypes.c_long
    api = ctypes.pythonapi
    api.PyOS_BeforeFork()
    pid = _pydll.syscall(ctypes.c_long(nr), ctypes.c_ulong(CLONE_PARENT | signal.SIGCHLD), ctypes.c_long(0),
                         ctypes.c_long(0), ctypes.c_long(0), ctypes.c_long(0))
    if pid == 0:
        api.PyOS_AfterFork_Child()
        return 0
    err = ctypes.get_errno()
    api.PyOS_AfterFork_Parent()
    if pid < 0:
        raise OSError(err, f"clone: {os.strerror(err)}")
    return pid


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


def new_network_namespace() -> None:
    """Put this process (and its future children) in a network namespace of its own:
    only a loopback device, down, so that every connection fails (ENETUNREACH), as in a
    container started with --network=none. Root, or a process with CAP_SYS_ADMIN in its
    user namespace (the PID namespace's keeper, made by `new_pid_namespace`), needs only
    CLONE_NEWNET; a user gets a user namespace of its own too, its ids mapped to
    themselves."""
    try:
        unshare(CLONE_NEWNET)
        return
    except OSError as exc:
        if exc.errno != 1 or os.geteuid() == 0:  # EPERM: no capability in this user namespace
            raise
    uid, gid = os.getuid(), os.getgid()
    unshare(CLONE_NEWNET | CLONE_NEWUSER)
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


#: Address families that are the network (socket's first argument, a sockaddr's first field).
AF_INET, AF_INET6 = 2, 10
#: socketcall's first argument (i386): the socket calls the network watch asks about.
SYS_SOCKET, SYS_CONNECT, SYS_SENDTO, SYS_SENDMSG = 1, 3, 11, 16


@dataclass(frozen=True)
class Calls:
    """The watched system calls of one ABI. `table`: the file calls, name -> (number,
    index of the path arguments, index of the flags argument or None); `net`: number ->
    name of the calls that can reach the network (socket, connect, sendto, sendmsg, and
    i386's socketcall); `procs`: number -> name of the calls that make a process or a
    thread (clone, clone3, fork, vfork); `sigs`: number -> (name, index of the signal
    argument) of the calls that send a signal (kill, tkill, tgkill, rt_sigqueueinfo,
    rt_tgsigqueueinfo, pidfd_send_signal). `pointer` is the ABI's pointer size in bytes."""

    arch: int
    table: dict[str, tuple[int, tuple[int, ...], int | None]]
    x32: bool = False
    net: dict[int, str] = field(default_factory=dict)
    procs: dict[int, str] = field(default_factory=dict)
    pointer: int = 8
    sigs: dict[int, tuple[str, int]] = field(default_factory=dict)

    def name(self, nr: int) -> str | None:
        for name, (number, _, _) in self.table.items():
            if number == nr:
                return name
        return None


def _calls(arch: int, numbers: dict[str, int], x32: bool = False, net: dict[int, str] | None = None,
           procs: dict[int, str] | None = None, pointer: int = 8, sigs: dict[str, int] | None = None) -> Calls:
    shape = {  # (path arguments, flags argument); the *at calls take a directory fd first
        "open": ((0,), 1), "openat": ((1,), 2), "openat2": ((1,), None), "creat": ((0,), None),
        "rename": ((0, 1), None), "renameat": ((1, 3), None), "renameat2": ((1, 3), None),
        "unlink": ((0,), None), "unlinkat": ((1,), None), "rmdir": ((0,), None),
        "mkdir": ((0,), None), "mkdirat": ((1,), None), "link": ((0, 1), None), "linkat": ((1, 3), None),
        "symlink": ((1,), None), "symlinkat": ((2,), None), "mknod": ((0,), None), "mknodat": ((1,), None),
        "truncate": ((0,), None), "truncate64": ((0,), None),
    }
    signal_arg = {"kill": 1, "tkill": 1, "tgkill": 2, "rt_sigqueueinfo": 1, "rt_tgsigqueueinfo": 2,
                  "pidfd_send_signal": 1}
    return Calls(arch, {name: (nr, *shape[name]) for name, nr in numbers.items()}, x32,
                 dict(net or {}), dict(procs or {}), pointer,
                 {nr: (name, signal_arg[name]) for name, nr in (sigs or {}).items()})


X86_64 = _calls(AUDIT_ARCH_X86_64, {
    "open": 2, "openat": 257, "openat2": 437, "creat": 85, "rename": 82, "renameat": 264,
    "renameat2": 316, "unlink": 87, "unlinkat": 263, "rmdir": 84, "mkdir": 83, "mkdirat": 258,
    "link": 86, "linkat": 265, "symlink": 88, "symlinkat": 266, "mknod": 133, "mknodat": 259,
    "truncate": 76}, x32=True,
    # 518 is the x32 ABI's sendmsg (a msghdr of 32-bit pointers); the rest are common to both
    net={41: "socket", 42: "connect", 44: "sendto", 46: "sendmsg", 518: "sendmsg"},
    procs={56: "clone", 57: "fork", 58: "vfork", 435: "clone3"},
    sigs={"kill": 62, "tkill": 200, "tgkill": 234, "rt_sigqueueinfo": 129, "rt_tgsigqueueinfo": 297,
          "pidfd_send_signal": 424})
I386 = _calls(AUDIT_ARCH_I386, {
    "open": 5, "openat": 295, "openat2": 437, "creat": 8, "rename": 38, "renameat": 302,
    "renameat2": 353, "unlink": 10, "unlinkat": 301, "rmdir": 40, "mkdir": 39, "mkdirat": 296,
    "link": 9, "linkat": 303, "symlink": 83, "symlinkat": 304, "mknod": 14, "mknodat": 297,
    "truncate": 92, "truncate64": 193},
    net={359: "socket", 362: "connect", 369: "sendto", 370: "sendmsg", 102: "socketcall"},
    procs={120: "clone", 2: "fork", 190: "vfork", 435: "clone3"}, pointer=4,
    sigs={"kill": 37, "tkill": 238, "tgkill": 270, "rt_sigqueueinfo": 178, "rt_tgsigqueueinfo": 335,
          "pidfd_send_signal": 424})
AARCH64 = _calls(AUDIT_ARCH_AARCH64, {
    "openat": 56, "openat2": 437, "renameat": 38, "renameat2": 276, "unlinkat": 35, "mkdirat": 34,
    "linkat": 37, "symlinkat": 36, "mknodat": 33, "truncate": 45},
    net={198: "socket", 203: "connect", 206: "sendto", 211: "sendmsg"},
    procs={220: "clone", 435: "clone3"},
    sigs={"kill": 129, "tkill": 130, "tgkill": 131, "rt_sigqueueinfo": 138, "rt_tgsigqueueinfo": 240,
          "pidfd_send_signal": 424})

#: The ABIs a bot may use on each machine (a 64-bit x86 machine also runs 32-bit programs).
ABIS = {"x86_64": (X86_64, I386), "aarch64": (AARCH64,), "arm64": (AARCH64,)}


def machine_abis() -> tuple[Calls, ...]:
    return ABIS.get(platform.machine(), ())


def _insn(code: int, jt: int, jf: int, k: int) -> bytes:
    return struct.pack("<HBBI", code, jt, jf, k)


_LD_W_ABS, _JEQ_K, _JSET_K, _RET_K, _AND_K = 0x20, 0x15, 0x45, 0x06, 0x54
_NOTIFY, _ALLOW = _insn(_RET_K, 0, 0, SECCOMP_RET_USER_NOTIF), _insn(_RET_K, 0, 0, SECCOMP_RET_ALLOW)


def _low(arg: int) -> int:
    """Where the low 32 bits of args[arg] are in seccomp_data (nr, arch, ip, args[6])."""
    return 16 + 8 * arg


def _when_flags(arg: int, mask: int) -> list[bytes]:
    """Notify when args[arg] has one of the bits of `mask`, else allow."""
    return [_insn(_LD_W_ABS, 0, 0, _low(arg)), _insn(_JSET_K, 0, 1, mask), _NOTIFY, _ALLOW]


def _when_one_of(arg: int, values: tuple[int, ...]) -> list[bytes]:
    """Notify when the low 32 bits of args[arg] are one of `values`, else allow."""
    code = [_insn(_LD_W_ABS, 0, 0, _low(arg))]
    for index, value in enumerate(values):
        code.append(_insn(_JEQ_K, len(values) - index, 0, value))  # past the rest and the allow
    return code + [_ALLOW, _NOTIFY]


def _when_not_null(arg: int) -> list[bytes]:
    """Notify when args[arg] (a pointer: both halves) is not 0, else allow."""
    return [_insn(_LD_W_ABS, 0, 0, _low(arg)), _insn(_JEQ_K, 0, 3, 0),
            _insn(_LD_W_ABS, 0, 0, _low(arg) + 4), _insn(_JEQ_K, 0, 1, 0), _ALLOW, _NOTIFY]


def _block(calls: Calls, files: bool, network: bool, processes: bool, signals: bool = False) -> list[bytes]:
    """The part of the filter for one ABI: the call's number loaded, each watched call
    either notified always or after a test of its arguments, everything else allowed."""
    tested: list[tuple[int, list[bytes]]] = []
    always: list[int] = []
    if files:
        for nr, _, flags in calls.table.values():
            if flags is not None:
                tested.append((nr, _when_flags(flags, OPEN_WRITE_FLAGS)))
            else:
                always.append(nr)
    if network:
        for nr, name in calls.net.items():
            if name == "socket":  # only an internet socket: AF_UNIX, AF_NETLINK... never stop
                tested.append((nr, _when_one_of(0, (AF_INET, AF_INET6))))
            elif name == "sendto":  # send() is sendto without an address: the pipes' way
                tested.append((nr, _when_not_null(4)))
            elif name == "socketcall":
                tested.append((nr, _when_one_of(0, (SYS_SOCKET, SYS_CONNECT, SYS_SENDTO, SYS_SENDMSG))))
            else:  # connect, sendmsg: the address is in memory, which the keeper reads
                always.append(nr)
    if processes:
        always += list(calls.procs)
    if signals:  # only the two signals no process can catch: the keeper reads every other one
        for nr, (_, arg) in calls.sigs.items():
            tested.append((nr, _when_one_of(arg, (int(signal.SIGKILL), int(signal.SIGSTOP)))))
    body = [_insn(_LD_W_ABS, 0, 0, 0)]  # seccomp_data.nr
    if calls.x32:
        body.append(_insn(_AND_K, 0, 0, ~X32_SYSCALL_BIT & 0xFFFFFFFF))
    # Each tested call: if nr matches, its test (which returns), else skip over it.
    for nr, test in tested:
        body += [_insn(_JEQ_K, 0, len(test), nr), *test]
    for index, nr in enumerate(always):
        body.append(_insn(_JEQ_K, len(always) - index, 0, nr))
    return body + [_ALLOW, _NOTIFY]


def watch_filter(abis: tuple[Calls, ...], *, files: bool = True, network: bool = False,
                 processes: bool = False, signals: bool = False) -> bytes:
    """A classic BPF program that asks the supervisor (the keeper) about the watched
    calls and allows everything else at once:

    * `files`: every call that creates, writes, renames or deletes a file; never reads,
      writes to open descriptors (the pipes), or open() without a write flag;
    * `network`: socket() of AF_INET or AF_INET6 (the family is a register: tested here),
      connect(), sendto() with an address (send() on a connected socket is sendto with
      none: never stops), sendmsg() (its address is in memory: the keeper looks), and on
      i386 socketcall() for those four;
    * `processes`: clone, clone3, fork, vfork (the keeper counts the bot's tasks);
    * `signals`: a call that sends SIGKILL or SIGSTOP (kill, tkill, tgkill, the sigqueue
      calls, pidfd_send_signal: the signal is a register, tested here), which the keeper
      cannot read from its signalfd as it reads the others: it looks at the target."""
    blocks = [(calls.arch, _block(calls, files, network, processes, signals)) for calls in abis]
    program = [_insn(_LD_W_ABS, 0, 0, 4)]  # seccomp_data.arch
    # arch dispatch: jeq arch -> its block (skip the other blocks' lengths)
    offsets, position = [], 0
    for _, body in blocks:
        offsets.append(position)
        position += len(body)
    dispatch = []
    for index, (arch, _) in enumerate(blocks):
        remaining_dispatch = len(blocks) - index  # this jeq and the others, then the allow
        jump = remaining_dispatch + offsets[index]
        if jump > 255:  # a classic BPF jump is 8 bits
            raise ValueError("seccomp filter too long for its dispatch")
        dispatch.append(_insn(_JEQ_K, jump, 0, arch))
    dispatch.append(_ALLOW)  # an ABI we do not know
    program += dispatch
    for _, body in blocks:
        program += body
    return b"".join(program)


def file_filter(abis: tuple[Calls, ...]) -> bytes:
    """The filter of file operations alone (see `watch_filter`)."""
    return watch_filter(abis, files=True)


def watched(calls: Calls, nr: int) -> tuple[str, str] | None:
    """What a notified call is: ("file" | "net" | "procs", its name), or None. `nr` is
    the number as notified (with the x32 bit, if any)."""
    if calls.x32:
        x32 = bool(nr & X32_SYSCALL_BIT)
        nr &= ~X32_SYSCALL_BIT
    else:
        x32 = False
    name = calls.name(nr)
    if name is not None:
        return "file", name
    if nr in calls.net:
        if calls.x32 and (nr == 518) != x32:  # x32's sendmsg is 518 only; x86_64's is 46
            return None
        return "net", calls.net[nr]
    if nr in calls.procs:
        return "procs", calls.procs[nr]
    if nr in calls.sigs:
        return "sig", calls.sigs[nr][0]
    return None


def install_file_filter(code: bytes) -> int:
    """Install a filter built by `watch_filter` (or `file_filter`) on the calling process
    (and its future children); return the listener fd the supervisor reads
    notifications from (close-on-exec)."""
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


def skip_as_done(listener: int, id_: int) -> None:
    """End the call at once as if it had been done (it returns 0): nothing of it happens."""
    buf = ctypes.create_string_buffer(_RESP.pack(id_, 0, 0, 0))
    libc().ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, buf)


def refuse(listener: int, id_: int, errno: int) -> None:
    """End the call at once with this error (the call returns -1 and sets errno, as if
    the kernel had refused it: EAGAIN for a fork past a pids cgroup's limit)."""
    buf = ctypes.create_string_buffer(_RESP.pack(id_, 0, -errno, 0))
    libc().ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, buf)


SYS_PIDFD_GETFD = 438  # the same on x86_64 and aarch64


def take_fd(pid: int, fd: int) -> int:
    """A copy of descriptor `fd` of process `pid` (pidfd_getfd, Linux 5.6; needs what
    reading its memory needs), close-on-exec."""
    pidfd = os.pidfd_open(pid)
    try:
        return _check(libc().syscall(SYS_PIDFD_GETFD, pidfd, fd, 0), "pidfd_getfd")
    finally:
        os.close(pidfd)

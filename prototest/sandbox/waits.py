"""What the bot's threads are doing, read from /proc: computing, waiting for their input,
or asleep by their own doing.

The judge asks this when an answer is late (see `Bot.waiting_for_input`, `Bot.asleep`,
`Bot.cpu_ticks`): a bot that waits for input thinks it has answered, or expects more;
one asleep will not answer before its limit. Every answer is on evidence only: what
/proc does not show (another system, a /proc the judge may not read) proves nothing.
Nothing here keeps state; every function reads /proc afresh.
"""

from __future__ import annotations

import os
import platform
import stat
import time
from typing import TYPE_CHECKING

from . import keeper

if TYPE_CHECKING:
    from .envelope import Meter

#: The system calls a thread can wait for its input in, by number (as /proc/PID/task/TID/
#: syscall shows it), per machine: "read" (read, readv: the first argument is the fd),
#: "epoll" (epoll_wait, epoll_pwait: the set is the epoll fd's, the 4th argument the timeout,
#: -1 for none), "epoll2" (epoll_pwait2: a NULL timeout pointer for none), "poll" (the
#: pollfd array and its length, then a timeout in ms), "ppoll" (the same with a timespec
#: pointer, NULL for none), "select" and "pselect" (nfds, the read set, the write and
#: except sets, then a timeout pointer, NULL for none).
_WAIT_SYSCALLS = {
    "x86_64": {"0": "read", "19": "read", "232": "epoll", "281": "epoll", "441": "epoll2", "7": "poll",
               "271": "ppoll", "23": "select", "270": "pselect"},
    "aarch64": {"63": "read", "65": "read", "22": "epoll", "441": "epoll2", "73": "ppoll", "72": "pselect"},
}
_WAIT_SYSCALLS["arm64"] = _WAIT_SYSCALLS["aarch64"]
#: System calls a thread sleeps in by its own doing, whatever else runs on the machine: a
#: wait for ever for its own input (a read of a pipe: checked), a child of its own, a
#: signal, another thread of its process (a private futex with no timeout: checked), or a
#: sleep that lasts past another whole limit (read from its memory: see _task_asleep). Not
#: a file lock, a socket, a disk, a shared futex, a short sleep (a loop that polls for
#: something): another process (a copy of the bot in another game) or the machine can
#: hold those up (see Bot.asleep).
_ASLEEP_SYSCALLS = {
    "x86_64": {"0": "read", "19": "read", "34": "signal", "35": "nanosleep", "61": "wait", "128": "sigtimedwait",
               "130": "signal", "230": "clock_nanosleep", "247": "wait", "202": "futex"},
    "aarch64": {"63": "read", "65": "read", "95": "wait", "101": "nanosleep", "115": "clock_nanosleep",
                "133": "signal", "137": "sigtimedwait", "260": "wait", "98": "futex"},
}
_ASLEEP_SYSCALLS["arm64"] = _ASLEEP_SYSCALLS["aarch64"]
TIMER_ABSTIME = 1
FUTEX_PRIVATE_FLAG = 128
_NO_TIMEOUT = ("0xffffffff", "0xffffffffffffffff")
#: The most fds a poll or select set is read for (a bigger set is no evidence either way).
_MAX_WAIT_FDS = 4096
POLLIN = 0x1

def group_pids(pid: int) -> list[int]:
    """The bot's processes: the bot, then the other members of its process group."""
    try:
        return [pid] + [p for p in _group_members(pid) if p != pid]
    except OSError:
        return [pid]


def waiting_for_input(pid: int, pipe: tuple[int, int]) -> tuple[bool | None, str | None]:
    """Whether the bot (led by `pid`) sleeps until its stdin pipe (`pipe`, see _pipe_of)
    has more input, and the command line of the process seen reading it (None when none
    was). Only on evidence, read from /proc for every thread of every process in the
    bot's group (a JVM reads stdin in a thread of its own, a wrapper script in a child,
    Node in its event loop): no thread runs, and one is blocked reading the bot's stdin
    pipe, or waits with no timeout on a set that holds that pipe (epoll: the set from
    /proc/PID/fdinfo; poll and select: from the thread's memory, /proc/PID/mem, which the
    judge may read as the bot's ancestor). A thread waiting on anything else (Node's
    helper thread in epoll on its own eventfd, a JVM's in futex) is no sign. What /proc
    does not show (another system, a bot whose /proc the judge may not read) is no
    evidence either: None when no thread's system call could be read at all, False when
    what was read shows no such wait."""
    waiting: bool | None = None
    reader = None
    for member in group_pids(pid):
        try:
            tasks = os.listdir(f"/proc/{member}/task")
        except OSError:
            continue
        for tid in tasks:
            task = f"/proc/{member}/task/{tid}"
            if _task_runs(task):  # it computes: an idle helper thread's wait means nothing
                return False, reader
            if not waiting:
                seen = _task_waits_for_input(task, pipe)
                waiting = seen if seen is not None else waiting
                if seen:
                    reader = keeper._command(member)
    return waiting, reader


def group_tids(pid: int) -> list[int]:
    """The threads of every process of the bot's group."""
    return [int(t) for member in group_pids(pid) for t in _listdir(f"/proc/{member}/task") if t.isdigit()]


def asleep(pid: int, meter: Meter | None, started_ns: int, min_left_ns: int) -> bool:
    """Whether every thread of the bot started at `started_ns` (every process of it the
    meter finds, else the group of `pid`) is stopped or asleep by its own doing (see
    `Bot.asleep`)."""
    if meter is not None:
        try:
            tids = meter.tids(fresh=True)
        except OSError:
            tids = []
    else:
        tids = group_tids(pid)
    alive_ns = time.perf_counter_ns() - started_ns  # the longest any of its sleeps has lasted
    return all_asleep(tids, min_left_ns, alive_ns)


def all_asleep(tids: list[int], min_left_ns: int, alive_ns: int) -> bool:
    """Whether every thread of `tids` still there is stopped or asleep by its own doing
    (see `Bot.asleep`), and at least one is."""
    seen = False
    for tid in tids:
        state = _task_state(f"/proc/{tid}")
        if state in ("Z", "X", ""):  # gone meanwhile
            continue
        if state not in ("T", "t") and not (state == "S" and _task_asleep(f"/proc/{tid}", min_left_ns, alive_ns)):
            return False
        seen = True
    return seen


def cpu_ticks(pid: int) -> int:
    """The CPU time (clock ticks, user and system) of the bot's process group so far."""
    total = 0
    for member in group_pids(pid):
        stat = _read_proc(f"/proc/{member}/stat")
        fields = stat[stat.rfind(")") + 2:].split()
        if len(fields) > 12:
            total += int(fields[11]) + int(fields[12])
    return total


def _read_proc(path: str) -> str:
    try:
        with open(path) as fh:
            return fh.read().strip()
    except OSError:
        return ""


def _task_runs(task: str) -> bool:
    """A thread running or ready to run (state R)."""
    stat = _read_proc(f"{task}/stat")
    end = stat.rfind(")")
    return end >= 0 and stat[end + 2: end + 3] == "R"


def _task_state(task: str) -> str:
    """A thread's state letter (R, S, D, T, t, Z...), "" when it is gone."""
    stat = _read_proc(f"{task}/stat")
    end = stat.rfind(")")
    return stat[end + 2: end + 3] if end >= 0 else ""


def _syscall(fields: list[str], kinds: dict[str, dict[str, str]]) -> tuple[str, list[int]] | None:
    """A thread's system call from its /proc syscall line (`fields`, split): the kind
    `kinds` (_WAIT_SYSCALLS, _ASLEEP_SYSCALLS) gives its number on this machine, and its
    six arguments; None when it is none of those, or the line is not whole."""
    kind = kinds.get(platform.machine(), {}).get(fields[0]) if fields else None
    if kind is None or len(fields) < 7:
        return None
    try:
        return kind, [int(a, 16) for a in fields[1:7]]
    except ValueError:
        return None


def _task_asleep(task: str, min_left_ns: int, alive_ns: int) -> bool:
    """A sleeping thread (state S) whose system call is one it sleeps in by its own doing
    (_ASLEEP_SYSCALLS): a read only of a pipe, a futex only a private one with no timeout,
    a sleep only if at least `min_left_ns` of it is left (a relative sleep's request, less
    `alive_ns`, the longest it can have slept; an absolute one's deadline, less now)."""
    call = _syscall(_read_proc(f"{task}/syscall").split(), _ASLEEP_SYSCALLS)
    if call is None:
        return False
    kind, args = call
    if kind == "read":
        try:
            return os.readlink(f"{task}/fd/{args[0]}").startswith("pipe:")
        except (OSError, ValueError):
            return False
    if kind == "futex":
        return bool(args[1] & FUTEX_PRIVATE_FLAG) and args[3] == 0
    if kind == "sigtimedwait":
        return args[2] == 0
    if kind == "nanosleep":
        return _sleep_left(task, args[0], None, alive_ns) >= min_left_ns
    if kind == "clock_nanosleep":
        return _sleep_left(task, args[2], args[0] if args[1] & TIMER_ABSTIME else None, alive_ns) >= min_left_ns
    return True  # a wait for a child of its own, for a signal


def _sleep_left(task: str, address: int, clock: int | None, alive_ns: int) -> int:
    """How much of a sleep is left at least (ns; 0 when its request cannot be read): its
    timespec from the thread's memory, a deadline on `clock`, or (None) a duration that
    began `alive_ns` ago at the earliest."""
    data = _task_memory(task, address, 16)
    if len(data) < 16:
        return 0
    seconds = int.from_bytes(data[:8], "little", signed=True)
    nanoseconds = int.from_bytes(data[8:], "little", signed=True)
    request = seconds * 1_000_000_000 + nanoseconds
    if clock is None:
        return request - alive_ns
    try:
        return request - time.clock_gettime_ns(clock)
    except (OSError, OverflowError, ValueError):
        return 0


def _listdir(path: str) -> list[str]:
    try:
        return os.listdir(path)
    except OSError:
        return []


def _pipe_of(fd: int) -> tuple[int, int] | None:
    """The inode and device of the pipe behind `fd` (None: no pipe), as /proc names it."""
    try:
        st = os.fstat(fd)
    except OSError:
        return None
    return (st.st_ino, st.st_dev) if stat.S_ISFIFO(st.st_mode) else None


def _task_waits_for_input(task: str, pipe: tuple[int, int]) -> bool | None:
    """One thread asleep until the bot's stdin pipe (`pipe`, see _pipe_of) has input:
    blocked reading it, or waiting with no timeout on a set that holds it. A wait with a
    timeout ends by itself (a timer is set), a wait on other fds is another thread's
    business, and a set /proc does not show is no evidence: False. None: the thread's
    system call could not be read at all."""
    fields = _read_proc(f"{task}/syscall").split()
    if not fields:
        return None
    call = _syscall(fields, _WAIT_SYSCALLS)
    if call is None:
        return False
    kind, args = call
    if kind == "read":
        return _is_pipe(task, args[0], pipe)
    if kind == "epoll":
        return _no_timeout(args[3]) and _epoll_holds(task, args[0], pipe)
    if kind == "epoll2":
        return args[4] == 0 and _epoll_holds(task, args[0], pipe)
    if kind in ("poll", "ppoll"):
        endless = _no_timeout(args[2]) if kind == "poll" else args[2] == 0
        return endless and any(_is_pipe(task, fd, pipe) for fd in _poll_fds(task, args[0], args[1]))
    return args[4] == 0 and any(_is_pipe(task, fd, pipe) for fd in _select_fds(task, args[0], args[1]))


def _no_timeout(arg: int) -> bool:
    """A C int timeout argument that is negative: wait for ever (its register may hold it
    sign-extended or not)."""
    return arg & 0xFFFFFFFF >= 0x80000000


def _is_pipe(task: str, fd: int, pipe: tuple[int, int]) -> bool:
    try:
        return os.readlink(f"{task}/fd/{fd}") == f"pipe:[{pipe[0]}]"
    except (OSError, ValueError):
        return False


def _epoll_holds(task: str, epfd: int, pipe: tuple[int, int]) -> bool:
    """Whether the interest set of epoll fd `epfd` holds the pipe: /proc's fdinfo lists it,
    a `tfd: N events: ... ino:I sdev:D` line a target (the inode and device of what was
    added, so a target whose fd was since closed or moved is still named; kernels that
    print no inode are asked for fd N's link instead)."""
    info = _read_proc(f"{task}/fdinfo/{epfd}")
    for line in info.splitlines():
        if not line.startswith("tfd:"):
            continue
        words = line.split()
        found = {w.split(":", 1)[0]: w.split(":", 1)[1] for w in words if ":" in w and not w.endswith(":")}
        try:
            if "ino" in found:
                dev = int(found["sdev"], 16) if "sdev" in found else None
                if int(found["ino"], 16) == pipe[0] and (
                        dev is None or (dev >> 20, dev & 0xFFFFF) == (os.major(pipe[1]), os.minor(pipe[1]))):
                    return True
            elif _is_pipe(task, int(words[1]), pipe):
                return True
        except (ValueError, IndexError):
            continue
    return False


def _task_memory(task: str, address: int, size: int) -> bytes:
    """`size` bytes of the thread's memory at `address` (b"" when they cannot be read)."""
    if not address or size <= 0:
        return b""
    try:
        fd = os.open(f"{task}/mem", os.O_RDONLY)
    except OSError:
        return b""
    try:
        return os.pread(fd, size, address)
    except (OSError, OverflowError):
        return b""
    finally:
        os.close(fd)


def _poll_fds(task: str, address: int, count: int) -> list[int]:
    """The fds a poll waits to read: its pollfd array (int fd, short events, short
    revents), read from the thread's memory."""
    if count > _MAX_WAIT_FDS:
        return []
    data = _task_memory(task, address, 8 * count)
    fds = []
    for i in range(len(data) // 8):
        fd = int.from_bytes(data[8 * i: 8 * i + 4], "little", signed=True)
        events = int.from_bytes(data[8 * i + 4: 8 * i + 6], "little")
        if fd >= 0 and events & POLLIN:
            fds.append(fd)
    return fds


def _select_fds(task: str, count: int, address: int) -> list[int]:
    """The fds a select waits to read: the bits of its read set (fd_set, words of 64 bits
    on a 64-bit machine), read from the thread's memory."""
    if count > _MAX_WAIT_FDS:
        return []
    data = _task_memory(task, address, (count + 63) // 64 * 8)
    bits = int.from_bytes(data, "little")
    return [fd for fd in range(min(count, len(data) * 8)) if bits >> fd & 1]


def _group_members(group: int) -> list[int]:
    """The processes of a process group (the bot's, led by the bot itself)."""
    members = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            stat = _read_proc(f"/proc/{entry}/stat")
            fields = stat[stat.rfind(")") + 2:].split()
            if len(fields) > 2 and fields[2] == str(group):
                members.append(int(entry))
    return members


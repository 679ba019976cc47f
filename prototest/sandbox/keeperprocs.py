"""What the keeper reads of processes in /proc, and its small helpers: descriptors out of
the way, the start pipe's JSON lines, the seccomp filter's code (made once a process).

The keeper, its keepers' host and prototest's own sweeps (`prototest.sandbox.reaping`)
share these; none keeps state but the caches of `_filter_code` and `_user_name`.
"""

from __future__ import annotations

import fcntl
import json
import os
import signal
import socket
from typing import Any

#: The signals the keeper reads from its signalfd (and its PID 1 in the bot's namespace
#: catches): all but those no process can catch or that mean nothing to it.
_KEEPER_SIGNALS = tuple(sorted(
    {int(s) for s in signal.valid_signals()} - {int(signal.SIGKILL), int(signal.SIGSTOP), int(signal.SIGCHLD),
                                                int(signal.SIGCONT), int(signal.SIGWINCH), int(signal.SIGURG)}))


def _signed(value: int) -> int:
    """A C int argument (a pid) from its 64-bit register: -1 is 0xffffffff, sign-extended or not."""
    value &= 0xFFFFFFFF
    return value - (1 << 32) if value & 0x80000000 else value


def _read_text(path: str) -> str:
    try:
        with open(path) as fh:
            return fh.read()
    except OSError:
        return ""


# -- counting the bot's tasks ---------------------------------------------------------------

def _processes_below(root: int) -> list[int]:
    """Every process descended from `root` (zombies too: a pids cgroup counts them until
    they are reaped)."""
    found, stack = [], [root]
    while stack:
        children = _children(stack.pop())
        if children is None:
            return [pid for pid, _ in _descendants_by_walk(root)]
        found += children
        stack += children
    return found


def _threads(pid: int) -> int:
    """The threads of a process (1 for a zombie); 0 when it is gone."""
    fields = _stat_fields(pid)
    try:
        return max(1, int(fields[17]))  # type: ignore[index]  # num_threads, the 20th field of stat
    except (TypeError, IndexError, ValueError):
        return 0


# -- /proc ----------------------------------------------------------------------------------

def _stat_fields(pid: int) -> list[bytes] | None:
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            data = fh.read()
    except OSError:
        return None
    return data[data.rfind(b")") + 2:].split()


def _parent(pid: int) -> int | None:
    fields = _stat_fields(pid)
    return int(fields[1]) if fields and len(fields) > 1 else None


def _command(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as fh:
            raw = fh.read(4096)
    except OSError:
        return ""
    return " ".join(os.fsdecode(part) for part in raw.rstrip(b"\0").split(b"\0"))


def _children(pid: int) -> list[int] | None:
    """The children of a process, from /proc/PID/task/*/children (None where the kernel
    has no such file: then only a walk over all of /proc finds them)."""
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return []
    found = []
    for tid in tasks:
        try:
            with open(f"/proc/{pid}/task/{tid}/children", "rb") as fh:
                found += [int(child) for child in fh.read().split()]
        except FileNotFoundError:
            if os.path.exists(f"/proc/{pid}/task/{tid}"):
                return None
        except OSError:
            pass
    return found


def _descendants(root: int) -> list[tuple[int, int]]:
    """(pid, process group) of every live process descended from `root`: along the
    children files (a few reads), else by a walk over all of /proc."""
    found, stack = [], [root]
    while stack:
        children = _children(stack.pop())
        if children is None:
            return _descendants_by_walk(root)
        for pid in children:
            fields = _stat_fields(pid)
            if fields and len(fields) > 2 and fields[0] != b"Z":
                found.append((pid, int(fields[2])))
            stack.append(pid)
    return found


def _descendants_by_walk(root: int) -> list[tuple[int, int]]:
    children: dict[int, list[int]] = {}
    groups: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        fields = _stat_fields(int(entry))
        if not fields or len(fields) < 3 or fields[0] == b"Z":
            continue
        children.setdefault(int(fields[1]), []).append(int(entry))
        groups[int(entry)] = int(fields[2])
    found = []
    stack = list(children.get(root, []))
    while stack:
        pid = stack.pop()
        found.append((pid, groups[pid]))
        stack.extend(children.get(pid, []))
    return found


def _high(fd: int) -> int:
    """The same file as `fd`, on a descriptor above 2 (close-on-exec)."""
    if fd > 2:
        return fd
    return fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10)


def _alive(pid: int) -> bool:
    fields = _stat_fields(pid)
    return bool(fields) and fields[0] not in (b"Z", b"X")  # type: ignore[index]


_filters: dict[tuple[bool, bool, bool], bytes] = {}


def _filter_code(files: bool = True, network: bool = False, processes: bool = False) -> bytes:
    """The filter's BPF program for this machine and these watches, built once (b""
    when the machine's system calls are unknown)."""
    key = (files, network, processes)
    if key not in _filters:
        from . import linux

        abis = linux.machine_abis()
        _filters[key] = linux.watch_filter(abis, files=files, network=network, processes=processes,
                                           signals=True) if abis else b""
    return _filters[key]


def _receive(sock: socket.socket) -> tuple[bytes, list[int]]:
    """The bot process's message before its exec: the listener fd, or why there is none."""
    try:
        msg, fds, _, _ = socket.recv_fds(sock, 256, 1)
    except OSError:
        return b"", []
    return msg, fds


def _status_field(pid: int, name: str) -> list[str] | None:
    try:
        with open(f"/proc/{pid}/status") as fh:
            for line in fh:
                if line.startswith(name + ":"):
                    return line.split()[1:]
    except OSError:
        pass
    return None


def _reap_all(seen) -> None:
    """Collect every dead child, calling seen(pid, status) for each."""
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        seen(pid, status)


def _read_line(fd: int) -> dict[str, Any] | None:
    data = b""
    while not data.endswith(b"\n"):
        try:
            chunk = os.read(fd, 1)
        except OSError:
            return None
        if not chunk:
            return None
        data += chunk
    try:
        return json.loads(data)
    except ValueError:
        return None


def _private_perf_data(linux) -> None:
    """A JVM keeps its perf data in /tmp/hsperfdata_USER/PID. Every bot of its own pid
    namespace has the same small pid, so two JVMs at once (games played in parallel) would
    take the same file, and the second prints a warning on stdout, which the judge reads
    as its answer. Each namespace gets its own folder there (a tmpfs of its mounts), owned
    by the user and 0755 as the JVM makes it: a tmpfs mounts 1777, which the JVM finds
    insecure and writes nothing to, and the write a real machine sees would go unreported."""
    user = _user_name()
    if user is None:
        return
    folder = f"/tmp/hsperfdata_{user}"
    try:
        os.makedirs(folder, mode=0o755, exist_ok=True)
        linux.mount("tmpfs", folder, "tmpfs", linux.MS_NOSUID | linux.MS_NODEV)
        os.chmod(folder, 0o755)  # the mount's root, now (owned by whoever mounted it: us)
    except OSError:
        pass


_user: list[str | None] = []


def _user_name() -> str | None:
    """This user's name (looked up once: before the keeper's fork, not in every bot's namespace)."""
    if not _user:
        import pwd

        try:
            _user.append(pwd.getpwuid(os.geteuid()).pw_name)
        except KeyError:
            _user.append(None)
    return _user[0]


def _noop(signum: int, frame: object) -> None:
    """A handler, so that the kernel delivers the signal to a namespace's PID 1 (which
    then reads it from its signalfd)."""


def _close_all_but(keep: set[int]) -> None:
    for entry in os.listdir("/proc/self/fd"):
        fd = int(entry)
        if fd not in keep:
            try:
                os.close(fd)
            except OSError:
                pass


def _to_dev_null(*fds: int) -> None:
    null = os.open(os.devnull, os.O_RDWR)
    for fd in fds:
        if fd != null:
            os.dup2(null, fd)
    if null not in fds:
        os.close(null)


def _say(fd: int, message: dict[str, Any]) -> None:
    try:
        os.write(fd, (json.dumps(message) + "\n").encode())
    except OSError:
        pass

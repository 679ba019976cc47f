"""What a system call the keeper's seccomp filter stopped is about, read from the caller's
memory (`/proc/PID/mem`) and its descriptors: a file operation (`describe`), an attempt
to reach the network (`describe_net`), a new process or thread (`makes_a_process`).

The keeper (`prototest.sandbox.keeper`) receives the notification, asks this module what it means,
reports it and lets the call go on (or refuses a task past its limit). Nothing here
changes anything: it only reads.
"""

from __future__ import annotations

import os
import socket
import stat
import struct
from typing import Any

AT_FDCWD = -100
AT_REMOVEDIR = 0x200
#: Writes here are not file operations: devices (/dev/null, a terminal, /dev/shm's
#: semaphores), the kernel's own files, and a process's own descriptors.
_NOT_FILES = ("/dev/", "/proc/", "/sys/")
#: Calls whose path argument is relative to the directory fd just before it.
_AT_CALLS = {"openat", "openat2", "renameat", "renameat2", "unlinkat", "mkdirat", "linkat", "symlinkat", "mknodat"}
_FAMILIES = {2: "AF_INET", 10: "AF_INET6"}
CLONE_THREAD = 0x00010000


def describe(note: Any) -> dict[str, Any] | None:
    """What a notified call does to the file system, or None when it is no file
    operation (an open of a device or a pipe, an attempt that cannot succeed)."""
    from . import linux

    calls = next((c for c in linux.machine_abis() if c.arch == note.arch), None)
    if calls is None:
        return None
    nr = note.nr & ~linux.X32_SYSCALL_BIT if calls.x32 else note.nr
    name = calls.name(nr)
    if name is None:
        return None
    _, path_args, flags_arg = calls.table[name]
    paths = [_bot_path(note, index, name) for index in path_args]
    if any(p is None for p in paths):
        return None
    shown = [p[0] for p in paths]  # type: ignore[index]
    seen = [p[1] for p in paths]  # type: ignore[index]
    if name in ("open", "openat", "openat2", "creat"):
        flags = _open_flags(note, name, flags_arg)
        if flags is None or not flags & linux.OPEN_WRITE_FLAGS:
            return None
        kind = _kind_of(seen[0])
        if kind == "other" or _not_a_file(shown[0]):
            return None
        if kind == "missing":
            if not flags & 0o100:  # no O_CREAT: the open fails
                return None
            return {"e": "file", "op": "create", "path": shown[0]}
        if kind == "dir":
            return {"e": "file", "op": "create", "path": shown[0] + "/(a temporary file)"}
        return {"e": "file", "op": "write", "path": shown[0]}
    if any(_not_a_file(p) for p in shown):
        return None
    if name.startswith("rename"):
        return {"e": "file", "op": "rename", "path": shown[0], "to": shown[1]}
    if name in ("unlink", "unlinkat", "rmdir"):
        folder = name == "rmdir" or (name == "unlinkat" and note.args[2] & AT_REMOVEDIR)
        if _kind_of(seen[0]) == "missing":
            return None
        return {"e": "file", "op": "delete folder" if folder else "delete", "path": shown[0]}
    if name in ("mkdir", "mkdirat"):
        return None if _kind_of(seen[0]) != "missing" else {"e": "file", "op": "create folder", "path": shown[0]}
    if name.startswith("truncate"):
        return {"e": "file", "op": "write", "path": shown[0]}
    if _kind_of(seen[0]) != "missing":  # link, symlink, mknod onto an existing name fail
        return None
    return {"e": "file", "op": "create", "path": shown[0]}


def kind_of_call(note: Any) -> tuple[str, str] | None:
    """("file" | "net" | "procs", the call's name) of a notification, or None."""
    from . import linux

    calls = next((c for c in linux.machine_abis() if c.arch == note.arch), None)
    return linux.watched(calls, note.nr) if calls is not None else None


def describe_net(note: Any, call: str) -> dict[str, Any] | None:
    """A `net` event for a call that can reach the network (socket of an internet
    family, connect, sendto or sendmsg to an internet address), or None when it does
    not (AF_UNIX, AF_NETLINK, no address): read from the caller's memory."""
    from . import linux

    calls = next((c for c in linux.machine_abis() if c.arch == note.arch), None)
    if calls is None:
        return None
    x32 = calls.x32 and bool(note.nr & linux.X32_SYSCALL_BIT)
    pointer = 4 if x32 else calls.pointer
    args = list(note.args)
    if call == "socketcall":  # i386: (which call, a pointer to its arguments, 32 bits each)
        names = {linux.SYS_SOCKET: "socket", linux.SYS_CONNECT: "connect", linux.SYS_SENDTO: "sendto",
                 linux.SYS_SENDMSG: "sendmsg"}
        call = names.get(args[0] & 0xFFFFFFFF, "")
        raw = _read_memory(note.pid, args[1], 24) if call else None
        if not raw or len(raw) < 24:
            return None
        args = list(struct.unpack("<6I", raw))
    if call == "socket":
        family = _FAMILIES.get(args[0] & 0xFFFFFFFF)
        return {"e": "net", "call": "socket", "family": family, "address": ""} if family else None
    if call == "connect":
        address, length = args[1], args[2]
    elif call == "sendto":
        address, length = args[4], args[5]
    elif call == "sendmsg":  # struct msghdr: msg_name (a pointer), msg_namelen
        raw = _read_memory(note.pid, args[1], pointer + 4)
        if not raw or len(raw) < pointer + 4:
            return None
        address = int.from_bytes(raw[:pointer], "little")
        length = int.from_bytes(raw[pointer:pointer + 4], "little")
    else:
        return None
    if not address:
        return None
    sockaddr = _read_memory(note.pid, address, min(length & 0xFFFFFFFF, 128))
    shown = _sockaddr(sockaddr or b"")
    if shown is None:
        return None
    return {"e": "net", "call": call, "family": shown[0], "address": shown[1]}


def _sockaddr(raw: bytes) -> tuple[str, str] | None:
    """(family, "host:port") of an internet socket address; None for any other."""
    if len(raw) < 2:
        return None
    family = int.from_bytes(raw[:2], "little")
    if family == 2 and len(raw) >= 8:
        port = int.from_bytes(raw[2:4], "big")
        return "AF_INET", f"{socket.inet_ntop(socket.AF_INET, raw[4:8])}:{port}"
    if family == 10 and len(raw) >= 24:
        port = int.from_bytes(raw[2:4], "big")
        return "AF_INET6", f"[{socket.inet_ntop(socket.AF_INET6, raw[8:24])}]:{port}"
    return None


def makes_a_process(note: Any, call: str) -> bool:
    """Whether a fork or clone makes a process (not a thread of the caller's)."""
    if call in ("fork", "vfork"):
        return True
    if call == "clone":
        return not note.args[0] & CLONE_THREAD
    raw = _read_memory(note.pid, note.args[0], 8)  # clone3: struct clone_args begins with its flags
    return not raw or len(raw) < 8 or not int.from_bytes(raw, "little") & CLONE_THREAD


def _open_flags(note: Any, name: str, flags_arg: int | None) -> int | None:
    if name == "creat":
        return 0o1101  # O_WRONLY | O_CREAT | O_TRUNC
    if name == "openat2":
        raw = _read_memory(note.pid, note.args[2], 8)
        return int.from_bytes(raw, "little") if raw and len(raw) == 8 else None
    assert flags_arg is not None
    return note.args[flags_arg] & 0xFFFFFFFF


def _bot_path(note: Any, index: int, name: str) -> tuple[str, str] | None:
    """(the path as the bot sees it, made absolute; the path through which the keeper can
    look at the same file), for the path argument `index` of the call."""
    raw = _read_string(note.pid, note.args[index])
    if raw is None:
        return None
    text = os.fsdecode(raw)
    pid = note.pid
    if text.startswith("/"):
        return _absolute(text), _through_proc(text, pid)
    dirfd = None
    if name in _AT_CALLS:
        dirfd = note.args[index - 1] & 0xFFFFFFFF
        dirfd = dirfd - (1 << 32) if dirfd >= 1 << 31 else dirfd
    base = f"/proc/{pid}/cwd" if dirfd in (None, AT_FDCWD) else f"/proc/{pid}/fd/{dirfd}"
    try:
        shown_base = os.readlink(base)
    except OSError:
        shown_base = base
    return _absolute(os.path.join(shown_base, text)), os.path.join(base, text)


def _absolute(path: str) -> str:
    return os.path.normpath(path) if not path.startswith("//") else path


def _through_proc(path: str, pid: int) -> str:
    """A path of the bot's that names its own descriptors, seen from the keeper."""
    for prefix, replacement in (("/proc/self/", f"/proc/{pid}/"), ("/proc/thread-self/", f"/proc/{pid}/"),
                                ("/dev/fd/", f"/proc/{pid}/fd/")):
        if path.startswith(prefix):
            return replacement + path[len(prefix):]
    std = {"/dev/stdin": 0, "/dev/stdout": 1, "/dev/stderr": 2}
    if path in std:
        return f"/proc/{pid}/fd/{std[path]}"
    # Through the bot's root, its mounts: in its namespace, /tmp/hsperfdata_USER is its own.
    root = f"/proc/{pid}/root"
    return root + path if os.path.isdir(root) else path


def _kind_of(path: str) -> str:
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return "missing"
    except OSError:
        return "file"  # cannot look (permissions): count it
    if stat.S_ISREG(mode):
        return "file"
    if stat.S_ISDIR(mode):
        return "dir"
    return "other"  # a device, a pipe, a socket


def _not_a_file(shown: str) -> bool:
    return shown.startswith(_NOT_FILES) or shown in ("/dev", "/proc", "/sys")


def _read_memory(pid: int, address: int, size: int) -> bytes | None:
    try:
        fd = os.open(f"/proc/{pid}/mem", os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        return os.pread(fd, size, address)
    except OSError:
        return None
    finally:
        os.close(fd)


def _read_string(pid: int, address: int, limit: int = 4096) -> bytes | None:
    """A NUL-terminated string from another process's memory, read page by page (a read
    that crosses into an unmapped page fails)."""
    if not address:
        return None
    try:
        fd = os.open(f"/proc/{pid}/mem", os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return None
    out = b""
    try:
        while len(out) < limit:
            chunk = 4096 - (address % 4096)
            try:
                data = os.pread(fd, chunk, address)
            except OSError:
                return None if not out else out
            if not data:
                break
            end = data.find(b"\0")
            if end >= 0:
                return out + data[:end]
            out += data
            address += len(data)
    finally:
        os.close(fd)
    return out

"""The bot's process, from the keeper's fork to its exec: what subprocess.Popen(
start_new_session=True) would have made of it, plus its cgroup, the parent-death signal
and the seccomp filter. Each function runs in that process and reads the keeper `k`'s
settings only."""

from __future__ import annotations

import fcntl
import os
import signal
import socket
from typing import TYPE_CHECKING

from .interrupts import sigmask
from .keeperprocs import _say

if TYPE_CHECKING:
    from .keepermain import _Keeper


def exec_bot(k: _Keeper, sock: socket.socket, parent: int) -> None:
    """In the bot's process: become what subprocess.Popen(start_new_session=True)
    would have made, plus the parent-death signal and the file filter; exec."""
    from . import linux

    code = 127
    try:
        os.setsid()
        linux.prctl(linux.PR_SET_PDEATHSIG, signal.SIGKILL)
        if os.getppid() != parent:  # the parent died before the line above
            os._exit(code)
        join_cgroup(k)
        bot_fds(k)
        if k.cwd is not None:
            try:
                os.chdir(k.cwd)
            except OSError as exc:
                _say(k.start_w, {"error": exc.errno or 2, "cwd": True})
                os._exit(code)
        # Handlers become SIG_DFL at exec by themselves; what Python ignores does not
        # (as subprocess does with restore_signals).
        for signum in (signal.SIGPIPE, signal.SIGXFSZ):
            signal.signal(signum, signal.SIG_DFL)
        sigmask(signal.SIG_SETMASK, k.restore_mask)
        if k.watches.filtered:
            install_filter(k, sock)
        else:
            sock.send(b"started")
        sock.recv(1)  # the keeper's go (or its end)
        sock.close()
        os.execvpe(k.argv[0], k.argv, k.env)
    except OSError as exc:
        _say(k.start_w, {"error": exc.errno or 8})
    except BaseException:  # noqa: BLE001
        pass
    os._exit(code)


def join_cgroup(k: _Keeper) -> None:
    """Move this process (the bot-to-be) into its cgroup: "0" is the writer, also in a
    PID namespace. Its children are born there. A failure is reported, and the bot
    starts anyway (prototest measures instead)."""
    failed = []
    for path in k.cgroup_join:
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CLOEXEC)
            try:
                os.write(fd, b"0")
            finally:
                os.close(fd)
        except OSError as exc:
            failed.append(f"{path}: {exc.strerror or exc}")
    if failed:
        _say(k.start_w, {"cgroup_error": "cannot join the cgroup (" + "; ".join(failed) + ")"})


def bot_fds(k: _Keeper) -> None:
    """The pipes as 0, 1, 2 (moved out of the way first: they may be 0..2 already)."""
    high = [fcntl.fcntl(fd, fcntl.F_DUPFD, 10) for fd in k.bot_side]
    for target, fd in enumerate(high):
        os.dup2(fd, target)
    for fd in set(high) | set(k.bot_side):
        if fd > 2:
            os.close(fd)
    os.set_blocking(0, True)


def install_filter(k: _Keeper, sock: socket.socket) -> None:
    from . import linux

    if not k.filter_code:
        sock.send(f"no system call table for {os.uname().machine}".encode())
        return
    try:
        listener = linux.install_file_filter(k.filter_code)
    except OSError as exc:
        sock.send(f"seccomp refused the filter ({exc.strerror})".encode())
        return
    if k.watches.network:  # sendmsg would stop at the filter: the keeper takes it (pidfd_getfd)
        sock.send(f"fd {listener}".encode())  # send() is sendto without an address: never stops
        return  # the listener is close-on-exec
    socket.send_fds(sock, [b"ok"], [listener])
    os.close(listener)

"""The bot's PID namespace, where the machine allows one: its first process (its PID 1,
"the inner keeper") starts the bot, reaps orphans, and tells the keeper the bot's exit
status and the signals the bot sends it, over a pipe; see `prototest.sandbox.keeper`."""

from __future__ import annotations

import json
import os
import select
import signal
import socket
import time
from typing import TYPE_CHECKING

from .keeperexec import exec_bot
from .keeperprocs import (_KEEPER_SIGNALS, _children, _command, _descendants, _noop, _private_perf_data, _read_line,
                          _reap_all, _say, _status_field)

if TYPE_CHECKING:
    from .keepermain import _Keeper


class PidNamespace:
    """The keeper's side of the bot's PID namespace. `k` is the keeper, whose pipes,
    signalfd and report pipe these use; `inner` is the namespace's PID 1 as the keeper
    sees it, None without a namespace."""

    def __init__(self, k: _Keeper) -> None:
        self.k = k
        self.inner: int | None = None  # PID 1 of the bot's namespace, when there is one
        self.inner_r: int | None = None
        self._inner_buf = b""
        self.inner_gone = False

    def start(self, parent_sock: socket.socket, child_sock: socket.socket) -> int:
        """Fork the namespace's first process (its PID 1, "the inner keeper"), which
        starts the bot; return the bot's pid as we see it (0 if it is gone already)."""
        inner_r, inner_w = os.pipe()
        self.inner = os.fork()
        if self.inner == 0:
            os.close(inner_r)
            parent_sock.close()
            self._inner_main(inner_w, child_sock)  # never returns
        os.close(inner_w)
        self.inner_r = inner_r
        first = _read_line(inner_r)
        return first.get("bot") if first else None

    def _inner_main(self, out: int, sock: socket.socket) -> None:
        """PID 1 of the bot's namespace: when it ends, the kernel kills every process
        in the namespace. It starts the bot, reaps orphans, and tells the keeper the
        bot's exit status and the signals the bot sends it (a PID 1 receives only the
        signals it has a handler for: every one gets one, and is read from the signalfd)."""
        from . import linux

        k = self.k
        try:
            linux.prctl(linux.PR_SET_PDEATHSIG, signal.SIGKILL)  # the keeper gone: the namespace ends
            try:  # the bot's /proc shows its own namespace, so its pids and /proc agree
                linux.unshare(linux.CLONE_NEWNS)
                own_mounts = True
            except OSError:
                own_mounts = False
            k._own_network()
            for signum in _KEEPER_SIGNALS:
                try:
                    signal.signal(signum, _noop)
                except (OSError, ValueError):
                    pass
            # The bot's process shares this mount namespace: it gets ready for its exec while
            # the mounts below are made; the keeper lets it exec only after our line, after them.
            bot = os.fork()
            if bot == 0:
                os.close(out)
                exec_bot(k, sock, parent=1)  # never returns
            sock.close()
            for fd in (*k.bot_side, k.start_w, k.report_w):
                os.close(fd)
            if own_mounts:
                try:
                    linux.mount(None, "/", None, linux.MS_REC | linux.MS_PRIVATE)
                    linux.mount("proc", "/proc", "proc", linux.MS_NOSUID | linux.MS_NODEV | linux.MS_NOEXEC)
                    _private_perf_data(linux)
                except OSError:
                    pass
            os.write(out, (json.dumps({"bot": bot}) + "\n").encode())
            while True:
                select.select([k.sigfd], [], [])
                for info in linux.read_signals(k.sigfd):
                    if info.signo == signal.SIGCHLD:
                        _reap_all(lambda pid, status: pid == bot and _say(out, {"exit": status}))
                    elif info.pid and info.sent_by_a_process:  # from the parent namespace, pid is 0
                        _say(out, {"signal": info.signo, "nspid": info.pid})
        except BaseException:  # noqa: BLE001
            pass
        os._exit(70)

    def host_pid(self, nspid: int) -> int | None:
        """The pid we see of the process that is `nspid` in the bot's namespace."""
        if nspid == 2:  # the bot's process, before its exec: the inner keeper's only child yet
            children = _children(self.inner) if self.inner else None
            if children is not None and len(children) == 1:
                return children[0]
        for pid, _ in _descendants(self.inner):
            fields = _status_field(pid, "NSpid")
            if fields and fields[-1] == str(nspid):
                return pid
        return None

    def read(self) -> None:
        """What the inner keeper says: the bot's exit status, a signal the bot sent it; or
        its end, which is the namespace's."""
        k = self.k
        data = b""
        try:
            data = os.read(self.inner_r, 65536)
        except OSError:
            pass
        if not data:
            k.finishing = self.inner_gone = True  # the inner keeper is gone: so is the namespace
            return
        self._inner_buf += data
        *lines, rest = self._inner_buf.split(b"\n")
        self._inner_buf = rest
        for line in lines:
            try:
                message = json.loads(line)
            except ValueError:
                continue
            if "exit" in message:
                k.bot_status = message["exit"]
                k._report({"e": "exit", "status": message["exit"]})
            elif "signal" in message:
                pid = self.host_pid(message["nspid"])
                k._report({"e": "signal", "t": time.perf_counter_ns(), "sig": message["signal"],
                           "pid": pid or message["nspid"], "cmd": _command(pid) if pid else "",
                           "to": "keeper"})

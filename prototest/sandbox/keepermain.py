"""The keeper's own program: start the bot (in a PID namespace of its own where the
machine allows one), watch it, kill what it leaves, and end as it ended. It runs in a
process forked by prototest or by its keepers' host; see `prototest.sandbox.keeper` for
what it is for and what it reports. The namespace's side is `keeperpidns.PidNamespace`.
"""

from __future__ import annotations

import errno
import json
import os
import resource
import select
import signal
import socket
import time
from dataclasses import dataclass
from typing import Any, Sequence

from .interrupts import sigmask
from .keeperexec import exec_bot
from .keeperpidns import PidNamespace
from .keeperprocs import (_KEEPER_SIGNALS, _parent, _command, _descendants, _high, _alive, _filter_code, _receive,
                          _close_all_but, _to_dev_null, _say)
from .keeperwatch import CallWatch

#: A path longer than this is cut in a report (a report line must fit one atomic pipe write).
_PATH_SHOWN = 1000
_NO_LISTENER = b"the keeper could not take the filter's listener from the bot's process"


@dataclass(frozen=True)
class _Watches:
    """What the keeper does besides the file watch: refuse tasks past a limit, give the
    bot no network, report its network calls."""

    files: bool = False
    pids_limit: int | None = None
    no_network: bool = False
    network: bool = False

    @property
    def filtered(self) -> bool:
        return self.files or self.network or self.pids_limit is not None

    @property
    def filter_key(self) -> tuple[bool, bool, bool]:
        return self.files, self.network, self.pids_limit is not None


class _Keeper:
    def __init__(self, judge: int, argv: list[str], env: dict[str, str], cwd: str | None,
                 bot_side: tuple[int, int, int], start_w: int, report_w: int, *,
                 watch_files: bool, restore_mask: set[int], namespace: bool = False,
                 watches: _Watches | None = None, cgroup_join: Sequence[str] = ()) -> None:
        self.judge = judge
        self.argv = argv
        self.env = env
        self.cwd = cwd
        self.bot_side = bot_side
        self.start_w = start_w
        self.report_w = report_w
        self.watch_files = watch_files
        self.restore_mask = restore_mask
        self.cgroup_join = list(cgroup_join)
        self.bot = 0
        self.bot_status: int | None = None
        self.finishing = False
        self.dropped = 0
        self.listener: int | None = None
        self.reported_killed: set[int] = set()
        self.namespace = namespace
        self.watches = watches or _Watches(files=watch_files)
        self.filter_code = _filter_code(*self.watches.filter_key) if self.watches.filtered else b""
        #: What the seccomp filter stops: file operations, network calls, signals, forks.
        self.calls = CallWatch(self)
        #: The bot's PID namespace, when it has one (its PID 1, the inner keeper, and its pipe).
        self.pidns = PidNamespace(self)

    # -- start-up ---------------------------------------------------------------------------
    def run(self) -> int:
        from . import linux

        # Our descriptors out of the way of 0, 1, 2, which become /dev/null (in a library
        # caller whose standard streams were closed, a pipe can be one of them).
        self.bot_side = tuple(_high(fd) for fd in self.bot_side)  # type: ignore[assignment]
        self.start_w, self.report_w = _high(self.start_w), _high(self.report_w)
        _to_dev_null(0, 1, 2)
        _close_all_but(set(self.bot_side) | {0, 1, 2, self.start_w, self.report_w})
        _say(self.start_w, {"keeper": os.getpid()})  # prototest knows it when the keepers' host forked it
        os.set_blocking(self.report_w, False)
        os.setsid()  # out of prototest's group: a kill of that group is prototest's business
        linux.prctl(linux.PR_SET_PDEATHSIG, signal.SIGTERM)
        if os.getppid() != self.judge:  # prototest died before the line above
            return 70
        linux.prctl(linux.PR_SET_CHILD_SUBREAPER, 1)
        sigmask(signal.SIG_BLOCK, set(_KEEPER_SIGNALS) | {signal.SIGCHLD})
        self.sigfd = linux.signalfd(set(_KEEPER_SIGNALS) | {signal.SIGCHLD})
        parent_sock, child_sock = socket.socketpair()
        self.keeper = os.getpid()
        contain = "keeper"
        if self.namespace:
            try:
                linux.new_pid_namespace()
            except OSError as exc:  # the next child would be PID 1 of a broken namespace: start again
                _say(self.start_w, {"error": exc.errno or 1, "namespace": True})
                return 70
            contain = "pid-namespace"
            nspid = self.pidns.start(parent_sock, child_sock)
        else:
            self._own_network()
            self.bot = os.fork()
            if self.bot == 0:
                parent_sock.close()
                exec_bot(self, child_sock, parent=self.keeper)  # never returns
        child_sock.close()
        for fd in self.bot_side:
            os.close(fd)
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # mirroring a SIGSEGV leaves no core
        # The bot's process waits for our go before its exec: it cannot be gone while we
        # learn its pid (in a namespace, by its NSpid), and the file watch is in place.
        message, fds = _receive(parent_sock)
        if contain == "pid-namespace":
            self.bot = (self.pidns.host_pid(nspid) or 0) if nspid else 0
        message, fds = self._listener_by_number(message, fds)  # before the go: the bot's copy closes at exec
        if message.startswith(_NO_LISTENER):  # the bot's watched calls would fail (ENOSYS): start again
            for pid in (self.bot, self.pidns.inner):  # never its exec (its recv ends with us)
                if pid:
                    try:
                        os.kill(pid, signal.SIGKILL)
                    except OSError:
                        pass
            _say(self.start_w, {"error": errno.EPERM, "listener": True, "why": message.decode("utf-8", "replace")})
            return 70
        try:
            parent_sock.send(b"g")
        except OSError:
            pass
        parent_sock.close()
        _say(self.start_w, {"bot": self.bot, "contain": contain})
        self._take_listener(message, fds)
        os.close(self.start_w)
        return self._loop()

    def _take_listener(self, msg: bytes, fds: list[int]) -> None:
        if not self.watches.filtered:
            _say(self.start_w, {"watch": None, "why": "not asked for"})
            return
        files = self.watch_files
        if fds:
            self.listener = fds[0]
            os.set_blocking(self.listener, False)
            _say(self.start_w, {"watch": "seccomp" if files else None, "why": "" if files else "not asked for",
                                "filter": "seccomp"})
        else:
            why = msg.decode("utf-8", "replace") or "the bot did not start"
            _say(self.start_w, {"watch": None, "why": why if files else "not asked for", "filter": None,
                                "filter_why": why})

    def _listener_by_number(self, msg: bytes, fds: list[int]) -> tuple[bytes, list[int]]:
        """With the network watched, sendmsg stops at the filter, so the bot's process
        cannot pass the listener over the socket (the keeper would be asked about it
        while waiting for it): it sends the number, and the keeper takes a copy."""
        if fds or not msg.startswith(b"fd "):
            return msg, fds
        from . import linux

        try:
            return b"ok", [linux.take_fd(self.bot, int(msg[3:]))]
        except (OSError, ValueError) as exc:
            return _NO_LISTENER + f" ({exc})".encode(), []

    def _own_network(self) -> None:
        """network="none": a network namespace of our own (only a loopback device, down),
        which the bot then shares. Where the system refuses, the bot starts anyway and
        the start pipe says why."""
        if not self.watches.no_network:
            return
        from . import linux

        try:
            linux.new_network_namespace()
        except OSError as exc:
            _say(self.start_w, {"netns_error": f"the system refuses a network namespace ({exc.strerror or exc})"})
        else:
            _say(self.start_w, {"netns": "namespace"})

    # -- the loop ---------------------------------------------------------------------------
    def _loop(self) -> int:
        poller = select.poll()
        poller.register(self.sigfd, select.POLLIN)
        if self.listener is not None:
            poller.register(self.listener, select.POLLIN)
        if self.pidns.inner_r is not None:
            poller.register(self.pidns.inner_r, select.POLLIN)
        while True:
            for fd, event in poller.poll():
                if fd == self.sigfd:
                    self._signals()
                elif fd == self.pidns.inner_r:
                    self.pidns.read()
                    if self.finishing:
                        poller.unregister(fd)
                elif fd == self.listener:
                    if event & select.POLLIN:
                        self.calls.notification()
                    elif event & (select.POLLHUP | select.POLLERR):
                        poller.unregister(fd)
                        self.listener = None
            if self.bot_status is not None or self.finishing:
                return self._finish()

    def _signals(self) -> None:
        from . import linux

        for info in linux.read_signals(self.sigfd):
            if info.signo == signal.SIGCHLD:
                self._reap()
            elif info.pid == self.judge or os.getppid() != self.judge:
                self.finishing = True  # prototest asks, or has died (its death signal)
            elif info.sent_by_a_process and self._ours(info.pid):
                self._report({"e": "signal", "t": time.perf_counter_ns(), "sig": info.signo,
                              "pid": info.pid, "cmd": _command(info.pid), "to": "keeper"})
            # anything else (a user's pkill that matched the keeper too) is prototest's business

    def _ours(self, pid: int) -> bool:
        """Whether a process descends from the keeper (the bot and its descendants)."""
        for _ in range(256):
            if pid == os.getpid():
                return True
            parent = _parent(pid)
            if parent is None or parent <= 1:
                return False
            pid = parent
        return False

    def _reap(self) -> None:
        while True:
            try:
                result = os.waitid(os.P_ALL, 0, os.WEXITED | os.WNOHANG | os.WNOWAIT)
            except ChildProcessError:
                return
            if result is None:
                return
            self._report({"e": "gone", "pid": result.si_pid})
            try:
                pid, status = os.waitpid(result.si_pid, os.WNOHANG)
            except ChildProcessError:
                continue
            if pid and pid == self.pidns.inner:
                self.finishing = True
            elif pid == self.bot:
                self.bot_status = status
                self._report({"e": "exit", "status": status})  # before its leftovers are killed

    def _finish(self) -> int:
        """The bot has exited, or prototest wants it over: kill what is left of the
        bot's processes, reap them, and end as the bot ended."""
        pidns = self.pidns
        if pidns.inner_r is not None and self.bot_status is None and not _alive(self.bot):
            # the bot is dead: its status is on its way from the inner keeper
            deadline = time.monotonic() + 0.5
            while self.bot_status is None and not pidns.inner_gone and time.monotonic() < deadline:
                if select.select([pidns.inner_r], [], [], max(0.0, deadline - time.monotonic()))[0]:
                    pidns.read()
        for _ in range(100):
            left = _descendants(os.getpid())
            if not left:
                break
            for pid, pgid in left:  # reported first: killing the inner keeper ends the rest with it
                if pid not in (self.bot, pidns.inner) and pid not in self.reported_killed:
                    self.reported_killed.add(pid)
                    self._report({"e": "killed", "pid": pid, "pgid": pgid})
            for pid, _ in reversed(left):  # the deepest first
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass
            self._wait_children(0.2)
        self._wait_children(1.0)
        if self.calls.refusal_unreported is not None:  # the last refusal of a flood, with the total
            self._report(self.calls.refusal_unreported)
        if self.dropped:
            self._report({"e": "dropped", "n": self.dropped})
        return self._mirror()

    def _wait_children(self, seconds: float) -> None:
        """Reap children until none is left, for `seconds` at most: woken by SIGCHLD (read
        from the signalfd: the other signals that come now are of no use any more)."""
        from . import linux

        deadline = time.monotonic() + seconds
        while True:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == self.bot:
                self.bot_status = status
            if pid == 0:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return
                if select.select([self.sigfd], [], [], min(remaining, 0.01))[0]:
                    try:
                        linux.read_signals(self.sigfd)
                    except OSError:
                        pass

    def _mirror(self) -> int:
        """Exit as the bot did: the same status, or death by the same signal."""
        status = self.bot_status
        if status is None:  # never reaped: it was killed with the rest
            status = signal.SIGKILL
        if os.WIFSIGNALED(status):
            signum = os.WTERMSIG(status)
            try:
                if signum not in (signal.SIGKILL, signal.SIGSTOP):
                    signal.signal(signum, signal.SIG_DFL)
                    sigmask(signal.SIG_UNBLOCK, {signum})
                os.kill(os.getpid(), signum)
            except (OSError, ValueError):
                pass
            return 128 + signum
        return os.waitstatus_to_exitcode(status)

    def _report(self, event: dict[str, Any]) -> None:
        for key in ("path", "to", "cmd"):
            if isinstance(event.get(key), str) and len(event[key]) > _PATH_SHOWN:
                event[key] = event[key][:_PATH_SHOWN] + "..."
        data = (json.dumps(event) + "\n").encode()
        try:
            os.write(self.report_w, data)  # a pipe write under PIPE_BUF bytes is whole or nothing
        except BlockingIOError:
            self.dropped += 1
        except OSError:
            pass

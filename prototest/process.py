"""The bot process: pipes, a process group, a controlled environment, and time.

Real judges talk to bots over pipes, so this module does too: stdin, stdout and stderr
are three separate pipes (a pty would line-buffer the bot and hide a missing flush).
Reading stdout goes through `pexpect.fdpexpect`; one `poll` waits on stdout, stderr and
a pidfd of the bot, so the harness sleeps in the kernel (no busy polling), stderr is
drained as it comes (a bot blocked on a full stderr pipe would look like a timeout),
and the death of the bot is seen at once even when a child still holds its pipes.

Nothing here raises on a bot fault: reads return a `Read` saying what happened, writes
return False when the bot stopped reading or is gone. Memory is bounded: a line is
never kept past `max_line` bytes, stderr past the transcript's cap.

On Linux the bot is started by a keeper of prototest's own (`prototest.keeper`), so that
it dies with its judge and its file operations and signals are seen; those come back
as `events`. While a bot runs, the signals that could stop prototest are blocked and
read from a signalfd in the same `poll`: one sent by the bot's processes is an event,
anyone else's an interrupt, as before.
"""

from __future__ import annotations

import ctypes
import errno
import json
import math
import os
import platform
import select
import signal
import stat
import subprocess
import time
from collections import deque
from dataclasses import dataclass
from collections.abc import Set as AbstractSet
from typing import Sequence

import pexpect
from pexpect import fdpexpect

from . import envelope as envelopemod
from . import interrupts, keeper
from .transcript import Transcript, show

#: Environment variables passed to a bot; everything else (PYTHONUNBUFFERED among them)
#: is dropped, so a missing flush shows as it would on a real judge.
KEPT_ENV = ("PATH", "HOME", "USER", "LOGNAME", "LANG", "LC_ALL", "TZ", "TMPDIR")

READ_CHUNK = 65536
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
_MS = 1_000_000
#: The longest single wait in the kernel; longer waits loop (poll takes a C int of ms).
MAX_WAIT_MS = 60_000
#: Without a cgroup, how often the judge looks at the bot's peak memory while it waits
#: (the peak is the kernel's high-water mark: a peak between two looks is still seen).
MEMORY_LOOK_MS = 10
#: Without a memory limit, the peak is read for the figures at most this often (at answers).
MEMORY_FIGURE_MS = 100
PR_SET_CHILD_SUBREAPER = 36
#: Held back while a bot is killed (and, where a signalfd exists, read from it meanwhile).
_INTERRUPTS = set(interrupts.HELD)


def controlled_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    env = {k: os.environ[k] for k in KEPT_ENV if k in os.environ}
    env.setdefault("PATH", os.defpath)
    env.setdefault("LANG", "C.UTF-8")
    env.update(extra or {})
    return env


@dataclass(frozen=True)
class Read:
    """What one read of an answer line gave."""

    kind: str  # "line", "timeout", "eof", "overflow"
    data: bytes  # the line without its line end, or the partial data
    t_ns: int  # when the read that completed it returned (perf_counter_ns)
    end: bytes = b""  # the line end that ended it: b"\n", b"\r" or b"\r\n" (cr_ends_line)


class _SignalGuard:
    """While any bot runs, the signals of `interrupts.HELD` are blocked and read from one
    signalfd (each signal's sender is known: si_pid). Without a signalfd (not Linux),
    nothing is blocked and the handlers of `interrupts` act as before."""

    def __init__(self) -> None:
        self.depth = 0
        self.fd: int | None = None
        self.saved: set[int] = set()
        self.broken = False

    def hold(self) -> None:
        if self.depth == 0 and not self.broken:
            saved = interrupts.sigmask(signal.SIG_BLOCK, interrupts.HELD)
            if self.fd is None:
                try:
                    from . import linux
                    self.fd = linux.signalfd(interrupts.HELD)
                except (OSError, AttributeError):
                    self.broken = True
                    interrupts.sigmask(signal.SIG_SETMASK, saved)
                    return
            self.saved = set(saved)
        self.depth += 1

    @property
    def active(self) -> bool:
        return self.depth > 0 and self.fd is not None

    def read(self) -> list:
        if not self.active:
            return []
        from . import linux
        return linux.read_signals(self.fd)  # type: ignore[arg-type]

    def forget(self) -> None:
        """In a forked child: nothing held, its signals delivered as usual (the signalfd is
        made again when a bot of its own runs: it reads the signals of the process that reads it)."""
        if self.depth and not self.broken:
            interrupts.sigmask(signal.SIG_SETMASK, self.saved)
        self.depth = 0

    def release(self) -> None:
        if self.depth == 0:
            return
        self.depth -= 1
        if self.depth == 0 and not self.broken:
            interrupts.sigmask(signal.SIG_SETMASK, self.saved)


_guard = _SignalGuard()


def signal_guard() -> _SignalGuard:
    """The one signal guard (`prototest.pool` holds it while its workers play)."""
    return _guard


def outside_signal(signum: int) -> None:
    """A signal from outside any bot, read from the signalfd (see _outside_signal)."""
    _outside_signal(signum)


def _outside_signal(signum: int) -> None:
    """A signal from outside the bot, read from the signalfd: what it would have done had
    it not been blocked. The command line's handlers raise Interrupted (the first time);
    a library caller's handler runs (Python's SIGINT handler raises KeyboardInterrupt); a
    signal left to its default action gets it (the bot then dies with us, by its death
    signal); an ignored one is ignored."""
    handler = signal.getsignal(signum)
    if callable(handler):
        handler(signum, None)
    elif handler == signal.SIG_DFL:
        if signum in interrupts.STOPS:
            os.kill(os.getpid(), signal.SIGSTOP)  # Ctrl-Z: stop, as the user asked
        elif signum not in (signal.SIGCHLD, signal.SIGURG, signal.SIGWINCH, signal.SIGCONT):
            interrupts.sigmask(signal.SIG_UNBLOCK, {signum})
            signal.raise_signal(signum)


class Bot:
    """One running bot. Use as a context manager: leaving it kills the process group."""

    def __init__(self, argv: Sequence[str], *, env: dict[str, str], transcript: Transcript,
                 max_line: int, cwd: str | None = None, cr_ends_line: bool = False,
                 watch_files: bool = False, envelope: envelopemod.Envelope | None = None) -> None:
        self.argv = list(argv)
        self.transcript = transcript
        #: The most bytes of one line, its line end included: no line end within them
        #: is an "overflow" (what that means is the referee's business).
        self.max_line = max_line
        #: CodinGame's runner ends a line at "\r" too, and drops an "\n" right after it;
        #: `Read.end` says which ending it was, so the referee can warn.
        self.cr_ends_line = cr_ends_line
        self._skip_lf = False
        self._stderr_recent: deque[tuple[int, str]] = deque(maxlen=200)
        self.stderr_count = 0
        self._buf = bytearray()
        self._err_buf = bytearray()
        #: What the keeper and the signalfd saw: dicts with "e" = "file", "signal",
        #: "killed", "dropped" (see prototest.keeper), and "t" (perf_counter_ns).
        self.events: list[dict] = []
        #: Pids of the bot's processes that the keeper reaped (a signal's sender may be gone).
        self.gone: set[int] = set()
        self._report_buf = bytearray()
        self._report_fd: int | None = None
        self._killed: list[dict] = []  # the keeper's reports of processes left over and killed
        self._dropped = 0
        self._side_poller: select.poll | None = None
        self._side_poller_fds: list[int] = []
        self.keeper_pid: int | None = None
        self.file_watch: str | None = None
        self.file_watch_missing = "not asked for"
        self.containment = "none"
        #: The platform's limits (None: none), how they are held ("cgroup v1", "measured"),
        #: the bot's cgroup when it has one, and what reads its use of the machine.
        self.envelope = envelope
        self.enforced = "none"
        self.enforced_missing = ""
        self.group = None
        self.meter: envelopemod.Meter | None = None
        #: Without a cgroup: the memory limit the judge holds the bot to by looking
        #: (its peak resident memory, every MEMORY_LOOK_MS while it runs), and the finding
        #: event once it went over (the bot is then killed, as the OOM killer would).
        self._memory_limit: int | None = None
        self._memory_next_ns = 0
        self.memory_event: dict | None = None
        self._held = False
        _guard.hold()
        self._held = True
        self.started_ns = time.perf_counter_ns()
        try:
            self._launch(env, cwd, watch_files)
        except BaseException:
            self._release()
            raise
        self.returncode: int | None = None
        self._pidfd: int | None = None
        self._stdin_fd: int | None = self.proc.stdin.fileno()  # type: ignore[union-attr]
        #: The bot's stdin pipe (inode, device), to tell a thread reading it from one
        #: waiting on something else (see waiting_for_input).
        self._stdin_pipe = _pipe_of(self._stdin_fd)
        #: Set when a write failed because the bot closed its end of stdin (EPIPE).
        self.input_closed_by_bot = False
        self.sent_bytes = 0  # written to its stdin so far
        #: The command line of the process last seen waiting for input (waiting_for_input):
        #: the one that reads the judge's lines (a wrapper's child), which advice names. Read
        #: then: it may be gone by the time the finding is written.
        self.input_reader = ""
        try:
            self._setup()
        except BaseException:  # e.g. Ctrl-C right after the start: never leave the bot running
            self.kill()
            raise

    def _envelope_group(self, env: dict[str, str]) -> tuple[str, ...]:
        """A cgroup of the bot's own with the platform's limits, where the machine allows
        one; else the limits are held by measuring (memory, the CPU share) and by the
        keeper (processes and threads). Returns the files the bot joins the group by."""
        e = self.envelope
        if e is None or os.environ.get("PROTOTEST_NO_ACCOUNTING"):
            return ()
        if not (e.memory_bytes or e.cpu_share or e.pids):  # nothing to hold: /proc accounts for it
            return ()
        from . import cgroups

        why = cgroups.missing()
        if not why:
            try:
                self.group = cgroups.Group.create(cgroups.Limits(
                    memory_bytes=e.memory_bytes,
                    cpu_quota_us=int(e.cpu_share * e.cpu_period_ns / 1000) if e.cpu_share else None,
                    cpu_period_us=e.cpu_period_ns // 1000, pids=e.pids))
                self.enforced = f"cgroup v{self.group.version}"
                return tuple(self.group.join_files)
            except OSError as exc:
                why = f"the bot's cgroup could not be made ({exc.strerror or exc})"
        self.enforced, self.enforced_missing = "measured", why
        self._memory_limit = e.memory_bytes
        if e.memory_bytes and not any(k.startswith("JAVA_TOOL_OPTIONS") for k in env):
            # A JVM sizes its heap from its container's memory limit; without a cgroup it
            # is told the limit, so that it sizes the heap as it would on the platform.
            # (The JVM says "Picked up JAVA_TOOL_OPTIONS" on stderr.) With a CPU share, it is
            # told the CPUs it would see, so it chooses its collector and threads as there.
            options = f"-XX:MaxRAM={e.memory_bytes // (1 << 20)}m"
            if e.cpu_share:
                options += f" -XX:ActiveProcessorCount={max(1, math.ceil(e.cpu_share))}"
            env["JAVA_TOOL_OPTIONS"] = options
        return ()

    def _launch(self, env: dict[str, str], cwd: str | None, watch_files: bool) -> None:
        """Through the keeper where the machine has one (Linux), else as a plain child."""
        if keeper.supported():
            env = dict(env)
            join = self._envelope_group(env)
            e = self.envelope
            try:
                started = keeper.start(
                    self.argv, env, cwd, watch_files=watch_files,
                    restore_mask=_guard.saved if _guard.active else None, cgroup_join=join,
                    pids_limit=e.pids if e is not None and self.enforced == "measured" and e.pids else None,
                    network=e.network if e is not None else "allowed", watch_network=e is not None)
            except BaseException:
                self._drop_group()
                raise
            if started.cgroup_error:  # the bot runs outside its group: measure instead
                self.enforced_missing = f"the bot could not join its cgroup ({started.cgroup_error})"
                self._drop_group()
                self.enforced = "measured"
                self._memory_limit = e.memory_bytes if e is not None else None
            self.proc = started.proc
            _live.add(self.proc.pid)
            self.pid = started.bot_pid
            self.keeper_pid = started.proc.pid
            self._report_fd = started.report_fd
            self.file_watch = started.file_watch
            self.file_watch_missing = started.file_watch_missing
            self.containment = started.containment
            self._start_meter()
            return
        held = _guard.active  # the bot must not inherit the blocked signals
        if held:
            interrupts.sigmask(signal.SIG_SETMASK, _guard.saved)
        try:
            self.proc = subprocess.Popen(
                self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                env=env, cwd=cwd, start_new_session=True, bufsize=0, close_fds=True,
            )
        finally:
            if held:
                interrupts.sigmask(signal.SIG_BLOCK, interrupts.HELD)
        self.pid = self.proc.pid
        _live.add(self.pid)
        self.file_watch_missing = "no keeper on this system" if watch_files else "not asked for"
        if self.envelope is not None:
            self.enforced, self.enforced_missing = "measured", "no keeper on this system"
            self._memory_limit = self.envelope.memory_bytes
        self._start_meter()

    def _start_meter(self) -> None:
        if self.envelope is not None and not os.environ.get("PROTOTEST_NO_ACCOUNTING") and os.path.isdir("/proc/self/task"):
            self.meter = envelopemod.Meter(self.pid, self.group)

    def _end_envelope(self) -> None:
        """Once the bot is dead: keep its last figures, remove its cgroup, close the meter."""
        if self.meter is None and self.group is None:
            return
        self.final_peak = self.memory_peak()
        self.final_oom = self.oom_killed()
        self.final_pids_refused = self.pids_refused()
        self.final_tasks = self.tasks_peak()
        self._drop_group()
        if self.meter is not None:
            self.meter.close()
            self.meter = None

    #: The figures kept when the bot is dead (its meter and cgroup are gone by then).
    final_peak: int | None = None
    final_tasks = 0
    final_oom = False
    final_pids_refused = 0

    def tasks_peak(self) -> int:
        """The most processes and threads of the bot seen at once (its cgroup's count, or
        the meter's at its readings)."""
        peak = self.meter.peak_tasks if self.meter is not None else self.final_tasks
        if self.group is not None:
            try:
                peak = max(peak, self.group.pids_peak() or 0)
            except (OSError, ValueError):
                pass
        return peak

    def _drop_group(self) -> None:
        if self.group is not None:
            self.group.remove()
            self.group = None

    # -- what the bot uses ----------------------------------------------------------------
    def usage(self, fresh: bool = False) -> envelopemod.Usage | None:
        """The bot's use of the machine so far (None when it is not measured); `fresh`:
        every thread of the bot looked for now, not at the last walk."""
        if self.meter is None:
            return None
        try:
            used = self.meter.usage(fresh)
            if used.t_ns >= self._memory_next_ns and not self._memory_limit:  # the peak, for the figures
                self._memory_next_ns = used.t_ns + MEMORY_FIGURE_MS * _MS
                self.meter.memory_peak()
            return used
        except (OSError, ValueError):
            return None

    def _look_at_memory(self) -> None:
        """Without a cgroup: the bot's peak memory against the platform's limit; over it,
        the bot is killed, as the platform's OOM killer would."""
        now = time.perf_counter_ns()
        if now < self._memory_next_ns or self.meter is None or self.memory_event is not None:
            return
        self._memory_next_ns = now + MEMORY_LOOK_MS * _MS
        assert self._memory_limit is not None
        try:
            peak = self.meter.memory_peak()
        except (OSError, ValueError):
            return
        if peak > self._memory_limit:
            self.memory_event = {"e": "memory", "t": now, "peak": peak, "limit": self._memory_limit}
            for pid in reversed(self.meter.processes()):
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass

    def memory_peak(self) -> int | None:
        if self.meter is None:
            return self.final_peak
        try:
            return self.meter.memory_peak()
        except (OSError, ValueError):
            return self.meter.peak_bytes or None

    def oom_killed(self) -> bool:
        """Whether the platform's memory limit killed a process of the bot (its cgroup's
        OOM killer, or the judge's look at its memory)."""
        if self.memory_event is not None or self.final_oom:
            return True
        if self.group is not None:
            try:
                return self.group.oom_kills() > 0
            except (OSError, ValueError):
                return False
        return False

    def pids_refused(self) -> int:
        """Forks and threads refused by the cgroup's pids limit (the keeper's refusals
        come as events)."""
        if self.group is not None:
            try:
                return self.group.pids_refused()
            except (OSError, ValueError):
                return 0
        return self.final_pids_refused

    def _release(self) -> None:
        if self._held:
            self._held = False
            _guard.release()

    def _setup(self) -> None:
        assert self._stdin_fd is not None
        os.set_blocking(self._stdin_fd, False)
        self._out_fd = self.proc.stdout.fileno()  # type: ignore[union-attr]
        self._err_fd: int | None = self.proc.stderr.fileno()  # type: ignore[union-attr]
        self._out = fdpexpect.fdspawn(self._out_fd, timeout=None, use_poll=True)
        self._out_open = True
        self._out_watched = True  # False while the line buffer is full: the bot then blocks
        self._pidfd = self._open_pidfd()
        self._poller = select.poll()
        self._poller.register(self._out_fd, select.POLLIN)
        self._poller.register(self._err_fd, select.POLLIN)
        if self._pidfd is not None:
            self._poller.register(self._pidfd, select.POLLIN)
        for fd in self._side_fds():
            self._poller.register(fd, select.POLLIN)
        self.transcript.add("#", f"start pid {self.pid}: {' '.join(self.argv)}", self.started_ns)

    def _side_fds(self) -> list[int]:
        """The keeper's reports and the signalfd: watched in every wait, beside the pipes."""
        fds = [self._report_fd] if self._report_fd is not None else []
        return fds + ([_guard.fd] if _guard.active else [])  # type: ignore[list-item]

    def _open_pidfd(self) -> int | None:
        try:
            return os.pidfd_open(self.proc.pid)  # the keeper's, which ends as the bot does
        except (AttributeError, OSError):
            return None

    # -- context management -----------------------------------------------------------
    def __enter__(self) -> "Bot":
        return self

    def __exit__(self, *exc: object) -> None:
        self.kill()

    # -- writing ------------------------------------------------------------------------
    def send(self, lines: Sequence[str], deadline_ns: int) -> int | None:
        """Write lines; return the time the write started, or None if the bot is gone or
        stopped reading until the deadline (its stdin pipe stayed full)."""
        data = "".join(line + "\n" for line in lines).encode()
        t_start = time.perf_counter_ns()
        if not self._write_all(data, deadline_ns):
            return None
        self.sent_bytes += len(data)
        for line in lines:
            self.transcript.sent(line, t_start)
        return t_start

    def _write_all(self, data: bytes, deadline_ns: int) -> bool:
        if self._stdin_fd is None:
            return False
        view = memoryview(data)
        while view:
            try:
                n = os.write(self._stdin_fd, view)
                view = view[n:]
                continue
            except BlockingIOError:
                pass
            except BrokenPipeError:
                self.input_closed_by_bot = True
                return False
            if not self._wait_writable(deadline_ns):
                return False
        return True

    def _wait_writable(self, deadline_ns: int) -> bool:
        """Wait for room in the stdin pipe, draining stderr meanwhile."""
        poller = select.poll()
        poller.register(self._stdin_fd, select.POLLOUT)
        if self._err_fd is not None:
            poller.register(self._err_fd, select.POLLIN)
        for fd in self._side_fds():
            poller.register(fd, select.POLLIN)
        while True:
            remaining = deadline_ns - time.perf_counter_ns()
            if remaining <= 0:
                return False
            for fd, event in poller.poll(min(max(1, remaining // _MS), MAX_WAIT_MS)):
                if fd == self._stdin_fd:
                    return not event & (select.POLLERR | select.POLLHUP)
                if fd != self._err_fd:
                    self._side_event(fd)
                    continue
                self._drain_stderr()
                if self._err_fd is None:
                    poller.unregister(fd)

    def close_stdin(self) -> None:
        if self._stdin_fd is not None:
            try:
                self.proc.stdin.close()  # type: ignore[union-attr]
            except OSError:
                pass
            self._stdin_fd = None
            self.transcript.note("stdin closed")

    # -- reading ------------------------------------------------------------------------
    def read_line(self, deadline_ns: int) -> Read:
        """Read one stdout line before the deadline. A deadline in the past only takes
        what is already there."""
        last_look = False
        while True:
            found = self._take_line()
            if found is not None:
                if not self._out_watched:
                    self._watch_stdout(True)
                return Read("line", found[0], time.perf_counter_ns(), found[1])
            if len(self._buf) >= self.max_line:
                return Read("overflow", bytes(self._buf[:64]), time.perf_counter_ns())
            if not self._out_watched:  # the buffer was full, and a skipped "\n" made room
                self._watch_stdout(True)
            if not self._out_open:
                return Read("eof", bytes(self._buf), time.perf_counter_ns())
            remaining = deadline_ns - time.perf_counter_ns()
            if remaining <= 0:
                if last_look:
                    return Read("timeout", bytes(self._buf), time.perf_counter_ns())
                last_look = True
                self._pump(0)
                continue
            self._pump(-(-remaining // _MS))

    def _take_line(self) -> tuple[bytes, bytes] | None:
        """Cut one line off the buffer, with its line end: up to "\n", or (cr_ends_line)
        up to "\r", "\r\n" counting as one ending. Only a line end within the first
        max_line bytes counts (a longer line is an overflow)."""
        buf = self._buf
        if self._skip_lf and buf:
            self._skip_lf = False
            if buf[:1] == b"\n":
                del buf[:1]
        limit = self.max_line
        nl = buf.find(b"\n", 0, limit)
        if self.cr_ends_line:
            cr = buf.find(b"\r", 0, limit if nl < 0 else nl)
            if cr >= 0:
                line = bytes(buf[:cr])
                if buf[cr + 1: cr + 2] == b"\n":
                    del buf[: cr + 2]
                    return line, b"\r\n"
                del buf[: cr + 1]
                self._skip_lf = not buf
                return line, b"\r"
        if nl < 0:
            return None
        line = bytes(buf[:nl])
        del buf[: nl + 1]
        return line, b"\n"

    def _stdout_ready(self) -> bool:
        return bool(self._out_open and select.select([self._out_fd], [], [], 0)[0])

    def _pump(self, timeout_ms: int) -> bool:
        """Wait for one batch of events; handle them. True when anything happened."""
        if self._memory_limit:
            self._look_at_memory()
            timeout_ms = min(timeout_ms, MEMORY_LOOK_MS)
        events = self._poller.poll(min(timeout_ms, MAX_WAIT_MS))
        for fd, _ in events:
            if fd == self._out_fd:
                self._read_stdout()
            elif fd == self._err_fd:
                self._drain_stderr()
            elif fd == self._pidfd:
                self._on_exit()
            else:
                self._side_event(fd)
        return bool(events)

    # -- what the keeper and the signalfd report ---------------------------------------
    def _side_event(self, fd: int) -> None:
        if fd == self._report_fd:
            self._read_reports()
        elif fd == _guard.fd:
            self._on_signals(_guard.read())

    def take_events(self, look: bool = True) -> list[dict]:
        """The events so far, and forget them; with `look`, first read what is waiting on
        the side channels (one poll, without blocking). Without it, only what the waits
        for the bot's lines brought in: an event that came before an answer line was read
        with it (its report was written before the bot could go on)."""
        fds = self._side_fds() if look else []
        if fds:
            if self._side_poller is None or self._side_poller_fds != fds:
                self._side_poller, self._side_poller_fds = select.poll(), fds
                for fd in fds:
                    self._side_poller.register(fd, select.POLLIN)
            for fd, _ in self._side_poller.poll(0):
                self._side_event(fd)
        events, self.events = self.events, []
        return events

    def _read_reports(self) -> None:
        while self._report_fd is not None:
            try:
                chunk = os.read(self._report_fd, READ_CHUNK)
            except BlockingIOError:
                return
            except OSError:
                chunk = b""
            if not chunk:
                poller = getattr(self, "_poller", None)
                if poller is not None:
                    try:
                        poller.unregister(self._report_fd)
                    except KeyError:
                        pass
                os.close(self._report_fd)
                self._report_fd = None
                return
            self._report_buf += chunk
            *lines, rest = self._report_buf.split(b"\n")
            self._report_buf = bytearray(rest)
            for line in lines:
                try:
                    event = json.loads(line)
                except ValueError:
                    continue
                kind = event.get("e")
                if kind == "gone":
                    self.gone.add(event.get("pid", 0))
                elif kind == "exit":
                    self._on_exit(os.waitstatus_to_exitcode(event.get("status", 0)))
                elif kind == "killed":
                    self._killed.append(event)
                elif kind == "dropped":
                    self._dropped += event.get("n", 0)
                else:
                    self.events.append(event)

    def _on_signals(self, infos: list) -> None:
        """Signals sent to prototest while the bot runs: the bot's are events; the first
        from anyone else acts as before (an interrupt), once all are recorded."""
        outside = []
        for info in infos:
            if info.sent_by_a_process and self._sent_by_bot(info.pid):
                self.events.append(self._signal_event(info))
            else:
                outside.append(info.signo)
        for signum in outside:
            _outside_signal(signum)

    def _signal_event(self, info) -> dict:
        command = keeper._command(info.pid) or (" ".join(self.argv) if info.pid == self.pid else "")
        return {"e": "signal", "t": time.perf_counter_ns(), "sig": info.signo, "pid": info.pid,
                "cmd": command, "to": "prototest"}

    def _sent_by_bot(self, pid: int) -> bool:
        """Whether the sender is one of the bot's processes: it descends from the keeper
        (or from the bot, without one), or the keeper reported it reaped meanwhile."""
        root = self.keeper_pid or self.pid
        if pid == root:
            return self.keeper_pid is None
        process = pid
        for _ in range(256):
            if process == root:
                return True
            parent = keeper._parent(process)
            if parent is None:
                break
            if parent <= 1:
                return False
            process = parent
        if self._report_fd is not None:
            self._read_reports()  # a gone sender was reported before it was reaped
        return pid in self.gone

    def _read_stdout(self) -> None:
        size = min(READ_CHUNK, max(1, self.max_line - len(self._buf)))
        try:
            chunk = self._out.read_nonblocking(size, timeout=0)
        except pexpect.TIMEOUT:
            return
        except (pexpect.EOF, OSError):
            self._out_open = False
            self._watch_stdout(False)
            return
        self._buf += chunk
        if len(self._buf) >= self.max_line:
            self._watch_stdout(False)  # stop reading: memory stays bounded, no busy loop

    def _watch_stdout(self, on: bool) -> None:
        """(Un)register stdout with the poller; reading resumes when the buffer drains."""
        on = on and self._out_open and len(self._buf) < self.max_line
        if on != self._out_watched:
            if on:
                self._poller.register(self._out_fd, select.POLLIN)
            else:
                self._poller.unregister(self._out_fd)
            self._out_watched = on

    def _drain_stderr(self) -> None:
        if self._err_fd is None:
            return
        try:
            chunk = os.read(self._err_fd, READ_CHUNK)
        except BlockingIOError:
            return
        except OSError:
            chunk = b""
        now = time.perf_counter_ns()
        if not chunk:
            self._poller.unregister(self._err_fd)
            self._err_fd = None
            if self._err_buf:
                self._stderr_line(bytes(self._err_buf), now)
                self._err_buf.clear()
            return
        self._err_buf += chunk
        while (nl := self._err_buf.find(b"\n")) >= 0:
            self._stderr_line(bytes(self._err_buf[:nl]), now)
            del self._err_buf[: nl + 1]
        while len(self._err_buf) > 4096:  # a flood without newlines: keep it in pieces
            self._stderr_line(bytes(self._err_buf[:4096]), now)
            del self._err_buf[:4096]

    def _stderr_line(self, raw: bytes, t_ns: int) -> None:
        text = show(raw.decode("utf-8", "replace").rstrip("\r"))
        self.stderr_count += 1
        self._stderr_recent.append((self.stderr_count, text))
        self.transcript.stderr(text, t_ns)

    @property
    def stderr_tail(self) -> list[str]:
        return [text for _, text in list(self._stderr_recent)[-20:]]

    def stderr_since(self, mark: int) -> list[str]:
        """Stderr lines that came after `stderr_count` was `mark` (the last 200 at most)."""
        return [text for seq, text in self._stderr_recent if seq > mark]

    def input_closed(self) -> bool:
        """True when no process holds the read end of the bot's stdin any more (the bot
        closed it): the pipe then reports an error to the writer."""
        if self.input_closed_by_bot:
            return True
        if self._stdin_fd is None:
            return False
        poller = select.poll()
        poller.register(self._stdin_fd, 0)  # POLLERR is always reported
        return any(event & select.POLLERR for _, event in poller.poll(0))

    @property
    def stdin_fd(self) -> int | None:
        return self._stdin_fd

    def _on_exit(self, code: int | None = None) -> None:
        """The bot is gone; `code` is its status when the keeper reported it (the keeper
        itself ends a moment later, once it has killed what the bot left)."""
        if self.returncode is None:
            self.returncode = self.proc.wait() if code is None else code
            self.transcript.note(f"exited: {describe_status(self.returncode)}")
        if self._pidfd is not None:
            self._poller.unregister(self._pidfd)
            os.close(self._pidfd)
            self._pidfd = None
        # The bot is gone: whatever it wrote is in the pipes now; take it, but do not
        # wait for EOF, which a child holding the pipes could hold back for ever.
        while self._out_open and self._stdout_ready() and len(self._buf) < self.max_line:
            self._read_stdout()
        self._watch_stdout(False)
        self._out_open = False

    def _drop_pending_lf(self) -> None:
        """The "\n" of a "\r\n" that came in two pieces ends the previous line."""
        if self._skip_lf and self._buf:
            self._skip_lf = False
            if self._buf[:1] == b"\n":
                del self._buf[:1]

    def pending(self) -> bytes:
        """Whatever stdout holds right now, without waiting (out-of-turn output)."""
        self._pump(0)
        self._drop_pending_lf()
        if self._buf:
            data = bytes(self._buf[: self.max_line])
            self._buf.clear()
            self._watch_stdout(True)
            return data
        return b""

    def peek(self) -> bytes:
        """What stdout holds right now, without waiting and without taking it."""
        self._pump(0)
        self._drop_pending_lf()
        return bytes(self._buf)

    def drain(self, duration_ns: int) -> bytes:
        """Collect stdout and stderr for a while, e.g. after input closed."""
        deadline = time.perf_counter_ns() + duration_ns
        while self.alive():
            remaining = deadline - time.perf_counter_ns()
            if remaining <= 0:
                break
            self._pump(max(1, remaining // _MS))
        self._pump(0)
        self._drop_pending_lf()
        data = bytes(self._buf[: self.max_line])
        self._buf.clear()
        self._watch_stdout(True)
        return data

    # -- the process --------------------------------------------------------------------
    def alive(self) -> bool:
        if self.returncode is not None:
            return False
        code = self.proc.poll()
        if code is None:
            return True
        self._on_exit()
        return False

    def wait_exit(self, timeout_ns: int) -> tuple[int | None, bytes]:
        """Wait for the bot to exit, draining its output: its status (None while it
        still runs) and whatever it wrote to stdout meanwhile."""
        data = self.drain(timeout_ns)
        code = None if self.alive() else self.returncode
        return code, data + self.drain(0)  # what the exit itself flushed

    def waiting_for_input(self) -> bool | None:
        """True when the bot sleeps until more input comes: it thinks it has answered, or
        it expects more than it was sent. Only on evidence, read from /proc for every
        thread of every process in the bot's group (a JVM reads stdin in a thread of its
        own, a wrapper script in a child, Node in its event loop): no thread runs, and one
        is blocked reading the bot's stdin pipe, or waits with no timeout on a set that
        holds that pipe (epoll: the set from /proc/PID/fdinfo; poll and select: from the
        thread's memory, /proc/PID/mem, which the judge may read as the bot's ancestor).
        A thread waiting on anything else (Node's helper thread in epoll on its own
        eventfd, a JVM's in futex) is no sign. What /proc does not show (another system, a
        bot whose /proc the judge may not read) is no evidence either: None when no
        thread's system call could be read at all, False when what was read shows no
        such wait. Either way the judge neither blames a missing flush nor stops waiting
        early (see prototest.dialogue)."""
        if self._stdin_pipe is None:
            return None
        try:
            pids = [self.pid] + [p for p in _group_members(self.pid) if p != self.pid]
        except OSError:
            pids = [self.pid]
        waiting: bool | None = None
        for pid in pids:
            try:
                tasks = os.listdir(f"/proc/{pid}/task")
            except OSError:
                continue
            for tid in tasks:
                task = f"/proc/{pid}/task/{tid}"
                if _task_runs(task):  # it computes: an idle helper thread's wait means nothing
                    return False
                if not waiting:
                    seen = _task_waits_for_input(task, self._stdin_pipe)
                    waiting = seen if seen is not None else waiting
                    if seen:
                        self.input_reader = keeper._command(pid)
        return waiting

    def asleep(self, min_left_ns: int) -> bool:
        """True when every thread of the bot (every process of it the meter finds, else
        its group's) is stopped (a SIGSTOP), or asleep by its own doing (_ASLEEP_SYSCALLS:
        a sleep only if it lasts `min_left_ns` more at least): nothing of it runs, waits
        for a CPU, or waits for a disk, a lock or a socket that something else could hold.
        Only on evidence: a thread whose state or system call cannot be read (another
        system, a /proc the judge may not read) makes it False."""
        if self.meter is not None:
            try:
                tids = self.meter.tids(fresh=True)
            except OSError:
                tids = []
        else:
            try:
                pids = [self.pid] + [p for p in _group_members(self.pid) if p != self.pid]
            except OSError:
                pids = [self.pid]
            tids = [int(t) for pid in pids for t in _listdir(f"/proc/{pid}/task") if t.isdigit()]
        alive_ns = time.perf_counter_ns() - self.started_ns  # the longest any of its sleeps has lasted
        seen = False
        for tid in tids:
            state = _task_state(f"/proc/{tid}")
            if state in ("Z", "X", ""):  # gone meanwhile
                continue
            if state not in ("T", "t") and not (state == "S" and _task_asleep(f"/proc/{tid}", min_left_ns, alive_ns)):
                return False
            seen = True
        return seen

    def cpu_ticks(self) -> int:
        """The CPU time (clock ticks, user and system) the bot's process group has used
        so far, every thread counted: a bot that computes shows it rising, one that sits
        waiting for input does not."""
        try:
            pids = [self.pid] + [p for p in _group_members(self.pid) if p != self.pid]
        except OSError:
            pids = [self.pid]
        total = 0
        for pid in pids:
            stat = _read_proc(f"/proc/{pid}/stat")
            fields = stat[stat.rfind(")") + 2:].split()
            if len(fields) > 12:
                total += int(fields[11]) + int(fields[12])
        return total

    def kill(self) -> None:
        """End the whole process group: SIGTERM, a moment, then SIGKILL for all.
        Descendants that left the group (setsid) but are still children of its
        processes are found in /proc and killed too. Ctrl-C and SIGTERM wait until
        this is done, so an interrupt cannot leave the bot running; a signal the bot
        sent meanwhile is still told apart from a user's."""
        blocked = interrupts.sigmask(signal.SIG_BLOCK, _INTERRUPTS)
        outside: list[int] = []
        try:
            if self.keeper_pid is not None:
                self._kill_kept()
            else:
                self._kill()
        finally:
            if self._held:
                infos = _guard.read()
                if self._report_fd is not None:
                    self._read_reports()
                for info in infos:  # who sent what, now that everything of the bot's is dead
                    if info.sent_by_a_process and self._sent_by_bot(info.pid):
                        self.events.append(self._signal_event(info))
                    else:
                        outside.append(info.signo)
            if self._report_fd is not None:
                os.close(self._report_fd)
                self._report_fd = None
            self._end_envelope()
            interrupts.sigmask(signal.SIG_SETMASK, blocked)
            self._release()  # after the line above: the mask from before the first bot
        for signum in outside:
            _outside_signal(signum)

    def _kill_kept(self) -> None:
        """The keeper's way: SIGTERM to the bot's group, a moment, SIGKILL; then the keeper
        kills whatever is left of the bot's processes (it is their subreaper, wherever
        they went), reports them, and ends as the bot ended."""
        if self.pid > 1:  # never killpg(0): that is our own group
            self._term_then_kill_group()
        if self.proc.poll() is None:
            try:
                os.kill(self.proc.pid, signal.SIGTERM)  # the keeper: finish now
            except OSError:
                pass
            try:
                self.proc.wait(timeout=3.0)
            except subprocess.TimeoutExpired:
                os.kill(self.proc.pid, signal.SIGKILL)
        if self.returncode is None:
            self.returncode = self.proc.wait()
            self.transcript.note(f"killed: {describe_status(self.returncode)}")
        self._read_reports()
        escaped = [e["pid"] for e in self._killed if e.get("pgid") != self.pid]
        dropped = self._dropped
        if _subreaper:  # the keeper's own orphans, if it was killed before it could finish
            for pid, _parent in _descendants(os.getpid(), self.pid, _live - {self.proc.pid}):
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    continue
                escaped.append(pid)
            reap_orphans(1.0)
        if dropped:
            self.transcript.note(f"{dropped} report(s) of the bot's file operations or signals were lost "
                                 f"(too many at once)")
        self._close_up(escaped)

    def _kill(self) -> None:
        # Orphans of the bot are re-parented to this process when it is a subreaper.
        escaped = _descendants(os.getpid() if _subreaper else self.pid, self.pid, _live - {self.proc.pid})
        self._term_then_kill_group()
        if self.returncode is None:  # before any reaping below, which must not take the bot's status
            self.returncode = self.proc.wait()
            self.transcript.note(f"killed: {describe_status(self.returncode)}")
        # Kill what left the group, then look again: a process can fork while it dies
        # (a SIGTERM handler that spawns), and its orphans come to us as the subreaper.
        if _subreaper:  # look again: orphans born while the group died have come to us
            escaped = _descendants(os.getpid(), self.pid, _live - {self.proc.pid})
        killed: list[int] = []
        for _ in range(20):
            if not escaped:
                break
            for pid, _parent in escaped:
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass
            killed += [pid for pid, _ in escaped if pid not in killed]
            reap_orphans(1.0)  # so the dead are not found again
            escaped = _descendants(os.getpid(), self.pid, _live - {self.proc.pid}) if _subreaper else []
        self._close_up(killed)

    def _term_then_kill_group(self) -> None:
        """SIGTERM to the bot's group, a moment for it to go, then SIGKILL."""
        if self.proc.poll() is None:
            try:
                os.killpg(self.pid, signal.SIGTERM)
            except OSError:
                pass
            try:
                self.proc.wait(timeout=0.1)
            except subprocess.TimeoutExpired:
                pass
        try:
            os.killpg(self.pid, signal.SIGKILL)
        except OSError as exc:
            if exc.errno not in (errno.ESRCH, errno.EPERM):
                raise

    def _close_up(self, escaped: list[int]) -> None:
        """After the kill: note what had left the bot's group, close the pipes and the
        pidfd, reap what is left."""
        if escaped:
            self.transcript.note(f"killed {len(escaped)} process(es) that had left the bot's group: "
                                 + " ".join(str(pid) for pid in escaped))
        self.close_stdin()
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):  # stdin too, closed or not
            try:
                stream.close()  # type: ignore[union-attr]
            except OSError:
                pass
        if self._pidfd is not None:
            os.close(self._pidfd)
            self._pidfd = None
        _live.discard(self.proc.pid)
        reap_orphans()


_subreaper = False
#: The children of this process that are bots (or their keepers) not yet killed: a bot
#: started ahead of its game (runner.Ahead) lives beside the one playing, and the sweeps
#: after a kill (descendants outside the group, dead orphans) must leave it alone.
_live: set[int] = set()


def reap_orphans(wait_s: float = 0.0) -> None:
    """Collect the exit status of the dead orphans handed to us (no zombies pile up over
    a long run, none outlives prototest), waiting up to `wait_s` for killed ones still
    on their way. Only as the subreaper, when all our children are bots' leftovers."""
    if not _subreaper:
        return
    deadline = time.monotonic() + wait_s
    while True:
        if _live:  # one by one, past the live bots' own processes (their status is theirs)
            children = keeper._children(os.getpid())
            if children is None:
                return
            waiting, hosts = False, keeper.host_pids()
            for child in children:
                if child in _live or child in hosts:
                    continue
                try:
                    pid, _ = os.waitpid(child, os.WNOHANG)
                except ChildProcessError:
                    continue
                waiting = waiting or pid == 0
            if not waiting or time.monotonic() >= deadline:
                return
            time.sleep(0.005)
            continue
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return  # no children left at all
        if pid == 0:
            if time.monotonic() >= deadline or not _children_but_hosts():
                return
            time.sleep(0.005)


def _children_but_hosts() -> bool:
    """Whether this process has a child other than its keepers' hosts (which live on)."""
    children = keeper._children(os.getpid())
    return children is None or bool(set(children) - keeper.host_pids())


def become_subreaper() -> bool:
    """Make this process the reaper of its orphaned descendants (Linux), so a bot's
    child that left its group (setsid) and outlived the bot is still found and killed.
    For the command line only: a library caller's own children are not ours to kill."""
    global _subreaper
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        _subreaper = libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    except (OSError, AttributeError):
        _subreaper = False
    return _subreaper


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


def _task_asleep(task: str, min_left_ns: int, alive_ns: int) -> bool:
    """A sleeping thread (state S) whose system call is one it sleeps in by its own doing
    (_ASLEEP_SYSCALLS): a read only of a pipe, a futex only a private one with no timeout,
    a sleep only if at least `min_left_ns` of it is left (a relative sleep's request, less
    `alive_ns`, the longest it can have slept; an absolute one's deadline, less now)."""
    fields = _read_proc(f"{task}/syscall").split()
    kind = _ASLEEP_SYSCALLS.get(platform.machine(), {}).get(fields[0]) if fields else None
    if kind is None or len(fields) < 7:
        return False
    try:
        args = [int(a, 16) for a in fields[1:7]]
    except ValueError:
        return False
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
    kind = _WAIT_SYSCALLS.get(platform.machine(), {}).get(fields[0])
    if kind is None or len(fields) < 7:
        return False
    try:
        args = [int(a, 16) for a in fields[1:7]]
    except ValueError:
        return False
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


def _descendants(root: int, group: int, others: AbstractSet[int] = frozenset()) -> list[tuple[int, int]]:
    """(pid, parent) of the processes descended from `root` (by parent links in /proc)
    outside process group `group`: those a group kill would miss. Empty without /proc.
    Along the children files where the kernel has them (a few reads, not all of /proc)."""
    found: list[tuple[int, int]] = []
    stack = [root]
    hosts = keeper.host_pids()
    while stack:
        parent = stack.pop()
        children = keeper._children(parent)
        if children is None:
            return _descendants_by_walk(root, group, others)
        for pid in children:
            if parent == os.getpid() and pid in others:
                continue  # another bot, alive (started ahead of its game), and all of its own
            if pid in hosts:  # prototest's keepers' host (it has no children: keepers are ours)
                continue
            fields = keeper._stat_fields(pid)
            if fields and len(fields) > 2 and int(fields[2]) != group and pid != os.getpid():
                found.append((pid, parent))
            stack.append(pid)
    return found


def _descendants_by_walk(root: int, group: int, others: AbstractSet[int] = frozenset()) -> list[tuple[int, int]]:
    children: dict[int, list[int]] = {}
    groups: dict[int, int] = {}
    parents: dict[int, int] = {}
    try:
        entries = os.listdir("/proc")
    except OSError:
        return []
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as fh:
                stat = fh.read()
        except OSError:
            continue
        # pid (comm) state ppid pgrp ...: comm may hold spaces and parentheses.
        fields = stat[stat.rfind(b")") + 2:].split()
        if len(fields) < 3:
            continue
        pid = int(entry)
        parent = int(fields[1])
        children.setdefault(parent, []).append(pid)
        groups[pid] = int(fields[2])
        parents[pid] = parent
    found: list[tuple[int, int]] = []
    hosts = keeper.host_pids()
    stack = [pid for pid in children.get(root, []) if pid not in hosts and not (root == os.getpid() and pid in others)]
    while stack:
        pid = stack.pop()
        if groups.get(pid) != group and pid != os.getpid():
            found.append((pid, parents[pid]))
        stack.extend(children.get(pid, []))
    return found


def describe_end(code: int | None) -> str:
    """How the bot ended, as a verb phrase: "exited with status 1", "was killed by SIGABRT"
    (describe_status's noun phrase would read "ended with killed by SIGABRT")."""
    if code is None:
        return "is still running"
    if code < 0:
        return f"was {describe_status(code)}"
    return f"exited with status {code}"


def describe_status(code: int | None) -> str:
    if code is None:
        return "still running"
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        return f"killed by {name}"
    return f"exit status {code}"

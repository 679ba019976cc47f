"""The bot process: pipes, a process group, a controlled environment, and time.

Real judges talk to bots over pipes, so this module does too: stdin, stdout and stderr
are three separate pipes (a pty would line-buffer the bot and hide a missing flush).
Reading stdout is os.read on a non-blocking pipe; one `poll` waits on stdout, stderr and
a pidfd of the bot, so the harness sleeps in the kernel (no busy polling), stderr is
drained as it comes (a bot blocked on a full stderr pipe would look like a timeout),
and the death of the bot is seen at once even when a child still holds its pipes.

Nothing here raises on a bot fault: reads return a `Read` saying what happened, writes
return False when the bot stopped reading or is gone. Memory is bounded: a line is
never kept past `max_line` bytes, stderr past the transcript's cap.

On Linux the bot is started by a keeper of prototest's own (`prototest.sandbox.keeper`), so that
it dies with its judge and its file operations and signals are seen; those come back
as `events`. While a bot runs, the signals that could stop prototest are blocked and
read from a signalfd in the same `poll`: one sent by the bot's processes is an event,
anyone else's an interrupt, as before.

Bot composes the collaborators that do each part, one module each:
`launch` starts it (environment, cgroup, keeper), `holding` holds it to the platform's
limits and reads its use, `stdinwriter` writes the judge's lines to it, `pipes` reads
its answer lines and its stderr, `sidechannels` reads the keeper's reports and the
signalfd (`signalguard`), `waits` reads in /proc what its threads are doing, `reaping`
kills it, to the last of its processes, `exitstatus` says how it ended.
The names other layers use are all importable from here; the collaborators are Bot's
attributes `stdin`, `reader`, `stderr`, `channels` and `hold`.
"""

from __future__ import annotations

import os
import select
import signal
import time
from typing import Sequence

from . import envelope as envelopemod
from . import interrupts, keeper, reaping, waits
from .exitstatus import describe_end, describe_status
from .holding import MEMORY_FIGURE_MS, MEMORY_LOOK_MS, EnvelopeHold
from .launch import KEPT_ENV, controlled_env, launch
from .pipes import MAX_WAIT_MS, READ_CHUNK, AnswerReader, Read, StderrLog
from .reaping import (PR_SET_CHILD_SUBREAPER, _descendants, _descendants_by_walk, _live,
                      become_subreaper, reap_orphans)
from .sidechannels import SideChannels
from .signalguard import _guard, _outside_signal, _SignalGuard, outside_signal, signal_guard
from .stdinwriter import StdinWriter
from .transcript import Transcript
from .waits import _group_members, _pipe_of, _read_proc

__all__ = [
    "Bot", "Read", "KEPT_ENV", "READ_CHUNK", "MAX_WAIT_MS", "MEMORY_LOOK_MS", "MEMORY_FIGURE_MS",
    "PR_SET_CHILD_SUBREAPER", "controlled_env", "describe_end", "describe_status", "signal_guard",
    "outside_signal", "become_subreaper", "reap_orphans", "keeper", "_SignalGuard", "_guard",
    "_outside_signal", "_descendants", "_descendants_by_walk", "_live", "_group_members",
    "_pipe_of", "_read_proc",
]

_MS = 1_000_000
#: Held back while a bot is killed (and, where a signalfd exists, read from it meanwhile).
_INTERRUPTS = set(interrupts.HELD)


def __getattr__(name: str) -> object:
    """`_subreaper` as it is now (become_subreaper sets it in `reaping`)."""
    if name == "_subreaper":
        return reaping._subreaper
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class Bot:
    """One running bot. Use as a context manager: leaving it kills the process group."""

    def __init__(self, argv: Sequence[str], *, env: dict[str, str], transcript: Transcript,
                 max_line: int, cwd: str | None = None, cr_ends_line: bool = False,
                 watch_files: bool = False, envelope: envelopemod.Envelope | None = None) -> None:
        self.argv = list(argv)
        self.transcript = transcript
        #: The collaborators (see the module's docstring): stdout cut into answer lines,
        #: stderr as it comes, the keeper's reports and the signalfd, the envelope's hold.
        self.reader = AnswerReader(max_line, cr_ends_line)
        self.stderr = StderrLog(transcript)
        self.channels = SideChannels(self.argv, self._on_exit)
        self.keeper_pid: int | None = None
        self.file_watch: str | None = None
        self.file_watch_missing = "not asked for"
        self.containment = "none"
        self.hold = EnvelopeHold(envelope)
        self._held = False
        _guard.hold()
        self._held = True
        self.started_ns = time.perf_counter_ns()
        try:
            started = launch(self.argv, env, cwd, watch_files, self.hold)
        except BaseException:
            self._release()
            raise
        self.proc, self.pid, self.keeper_pid = started.proc, started.pid, started.keeper_pid
        self.channels.started(started.pid, started.keeper_pid, started.report_fd)
        self.file_watch, self.file_watch_missing = started.file_watch, started.file_watch_missing
        self.containment = started.containment
        self.returncode: int | None = None
        self._pidfd: int | None = None
        self.stdin = StdinWriter(self.proc.stdin, transcript, self.stderr, self.channels)  # type: ignore[arg-type]
        #: Write lines to the bot (see StdinWriter.send): the writer's own method, so that
        #: an exchange costs no call more than it did.
        self.send = self.stdin.send
        self.input_closed = self.stdin.input_closed
        #: The command line of the process last seen waiting for input (waiting_for_input):
        #: the one that reads the judge's lines (a wrapper's child), which advice names. Read
        #: then: it may be gone by the time the finding is written.
        self.input_reader = ""
        try:
            self._setup()
        except BaseException:  # e.g. Ctrl-C right after the start: never leave the bot running
            self.kill()
            raise

    # -- what the collaborators hold, under the names the judge uses --------------------
    @property
    def events(self) -> list[dict]:
        """What the keeper and the signalfd saw (see SideChannels.events)."""
        return self.channels.events

    def take_events(self, look: bool = True) -> list[dict]:
        """The events so far, and forget them (see SideChannels.take_events)."""
        return self.channels.take_events(look)

    def usage(self, fresh: bool = False) -> envelopemod.Usage | None:
        return self.hold.usage(fresh)

    @property
    def stderr_count(self) -> int:
        return self.stderr.count

    @property
    def stderr_tail(self) -> list[str]:
        return self.stderr.tail

    def stderr_since(self, mark: int) -> list[str]:
        """Stderr lines that came after `stderr_count` was `mark` (the last 200 at most)."""
        return self.stderr.since(mark)

    @property
    def stdin_fd(self) -> int | None:
        return self.stdin.fd

    @property
    def input_closed_by_bot(self) -> bool:
        """Whether a write failed because the bot closed its end of stdin (EPIPE)."""
        return self.stdin.closed_by_bot

    # -- starting -------------------------------------------------------------------------
    def _release(self) -> None:
        if self._held:
            self._held = False
            _guard.release()

    def _setup(self) -> None:
        assert self.stdin.fd is not None
        os.set_blocking(self.stdin.fd, False)
        self._out_fd = self.proc.stdout.fileno()  # type: ignore[union-attr]
        err_fd = self.proc.stderr.fileno()  # type: ignore[union-attr]
        self._poller = select.poll()
        self.reader.attach(self._out_fd, self._poller, self._pump)
        self.stderr.attach(err_fd, self._poller)
        self.channels.poller = self._poller
        self._pidfd = self._open_pidfd()
        self._poller.register(self._out_fd, select.POLLIN)
        self._poller.register(err_fd, select.POLLIN)
        if self._pidfd is not None:
            self._poller.register(self._pidfd, select.POLLIN)
        for fd in self.channels.fds():
            self._poller.register(fd, select.POLLIN)
        self.transcript.add("#", f"start pid {self.pid}: {' '.join(self.argv)}", self.started_ns)

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

    def close_stdin(self) -> None:
        self.stdin.close()

    # -- reading ------------------------------------------------------------------------
    def read_line(self, deadline_ns: int) -> Read:
        """Read one stdout line before the deadline. A deadline in the past only takes
        what is already there."""
        return self.reader.read_line(deadline_ns)

    def _pump(self, timeout_ms: int) -> bool:
        """Wait for one batch of events; handle them. True when anything happened."""
        if self.hold.memory_limit:
            self.hold.look_at_memory()
            timeout_ms = min(timeout_ms, MEMORY_LOOK_MS)
        if timeout_ms > 0 and self.hold.meter is not None:
            self.hold.meter.judge_looking()
        events = self._poller.poll(min(timeout_ms, MAX_WAIT_MS))
        output = False
        for fd, _ in events:
            if fd == self._out_fd:
                self.reader.read_chunk()
                output = True
            elif fd == self.stderr.fd:
                self.stderr.drain()
            elif fd == self._pidfd:
                self._on_exit()
            else:
                self.channels.on_event(fd)
        if not output and self.hold.meter is not None:
            self.hold.meter.judge_looked()
        return bool(events)

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
        self.reader.finish()

    def pending(self) -> bytes:
        """Whatever stdout holds right now, without waiting (out-of-turn output)."""
        self._pump(0)
        self.reader.drop_pending_lf()
        if self.reader.buf:
            return self.reader.take_all()
        return b""

    def peek(self) -> bytes:
        """What stdout holds right now, without waiting and without taking it."""
        self._pump(0)
        self.reader.drop_pending_lf()
        return bytes(self.reader.buf)

    def drain(self, duration_ns: int) -> bytes:
        """Collect stdout and stderr for a while, e.g. after input closed."""
        deadline = time.perf_counter_ns() + duration_ns
        while self.alive():
            remaining = deadline - time.perf_counter_ns()
            if remaining <= 0:
                break
            self._pump(max(1, remaining // _MS))
        self._pump(0)
        self.reader.drop_pending_lf()
        return self.reader.take_all()

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
        it expects more than it was sent. Only on evidence read from /proc (see
        waits.waiting_for_input): None when no thread's system call could be read at all,
        False when what was read shows no such wait. Either way the judge neither blames a
        missing flush nor stops waiting early (see prototest.judge.dialogue)."""
        if self.stdin.pipe is None:
            return None
        waiting, reader = waits.waiting_for_input(self.pid, self.stdin.pipe)
        if reader is not None:
            self.input_reader = reader
        return waiting

    def asleep(self, min_left_ns: int) -> bool:
        """True when every thread of the bot (every process of it the meter finds, else
        its group's) is stopped (a SIGSTOP), or asleep by its own doing (_ASLEEP_SYSCALLS:
        a sleep only if it lasts `min_left_ns` more at least): nothing of it runs, waits
        for a CPU, or waits for a disk, a lock or a socket that something else could hold.
        Only on evidence: a thread whose state or system call cannot be read (another
        system, a /proc the judge may not read) makes it False."""
        return waits.asleep(self.pid, self.hold.meter, self.started_ns, min_left_ns)

    def cpu_ticks(self) -> int:
        """The CPU time (clock ticks, user and system) the bot's process group has used
        so far, every thread counted: a bot that computes shows it rising, one that sits
        waiting for input does not."""
        return waits.cpu_ticks(self.pid)

    # -- the end --------------------------------------------------------------------------
    def kill(self) -> None:
        """End the whole process group: SIGTERM, a moment, then SIGKILL for all.
        Descendants that left the group (setsid) but are still children of its
        processes are found in /proc and killed too. Ctrl-C and SIGTERM wait until
        this is done, so an interrupt cannot leave the bot running; a signal the bot
        sent meanwhile is still told apart from a user's."""
        blocked = interrupts.sigmask(signal.SIG_BLOCK, _INTERRUPTS)
        outside: list[int] = []
        try:
            self._close_up(reaping.kill_kept(self) if self.keeper_pid is not None else reaping.kill_group(self))
        finally:
            if self._held:
                infos = _guard.read()
                if self.channels.report_fd is not None:
                    self.channels.read_reports()
                # who sent what, now that everything of the bot's is dead
                outside = self.channels.sort_signals(infos)
            self.channels.close()
            self.hold.end()
            interrupts.sigmask(signal.SIG_SETMASK, blocked)
            self._release()  # after the line above: the mask from before the first bot
        for signum in outside:
            _outside_signal(signum)

    def _close_up(self, escaped: list[int]) -> None:
        """After the kill (reaping.kill_kept, with a keeper, or reaping.kill_group): note
        what had left the bot's group, close the pipes and the pidfd, reap what is left."""
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

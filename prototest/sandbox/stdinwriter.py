"""The bot's stdin pipe: the judge's lines written into it, without ever blocking the judge.

The pipe is non-blocking: when the bot does not read and the pipe is full, the writer
waits in `poll` for room until the deadline, draining stderr and reading the side
channels meanwhile (a bot blocked on a full stderr pipe would never read its stdin).
Nothing here raises on a bot fault: a write returns None or False when the bot stopped
reading or is gone, and says whether the bot closed its end (EPIPE).
"""

from __future__ import annotations

import os
import select
import time
from typing import IO, Sequence

from .pipes import MAX_WAIT_MS, StderrLog
from .sidechannels import SideChannels
from .transcript import Transcript
from .waits import _pipe_of

_MS = 1_000_000


class StdinWriter:
    """Writes the judge's lines to the bot's stdin and closes it when asked."""

    def __init__(self, stdin: IO[bytes], transcript: Transcript, stderr: StderrLog, channels: SideChannels) -> None:
        self._stdin = stdin
        self.transcript = transcript
        self._stderr = stderr
        self._channels = channels
        self.fd: int | None = stdin.fileno()
        #: The bot's stdin pipe (inode, device), to tell a thread reading it from one
        #: waiting on something else (see Bot.waiting_for_input).
        self.pipe = _pipe_of(self.fd)
        #: Set when a write failed because the bot closed its end of stdin (EPIPE).
        self.closed_by_bot = False
        #: Bytes written to its stdin so far.
        self.sent_bytes = 0

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
        if self.fd is None:
            return False
        view = memoryview(data)
        while view:
            try:
                n = os.write(self.fd, view)
                view = view[n:]
                continue
            except BlockingIOError:
                pass
            except BrokenPipeError:
                self.closed_by_bot = True
                return False
            if not self._wait_writable(deadline_ns):
                return False
        return True

    def _wait_writable(self, deadline_ns: int) -> bool:
        """Wait for room in the stdin pipe, draining stderr meanwhile."""
        poller = select.poll()
        poller.register(self.fd, select.POLLOUT)
        err_fd = self._stderr.fd
        if err_fd is not None:
            poller.register(err_fd, select.POLLIN)
        for fd in self._channels.fds():
            poller.register(fd, select.POLLIN)
        while True:
            remaining = deadline_ns - time.perf_counter_ns()
            if remaining <= 0:
                return False
            for fd, event in poller.poll(min(max(1, remaining // _MS), MAX_WAIT_MS)):
                if fd == self.fd:
                    return not event & (select.POLLERR | select.POLLHUP)
                if fd != self._stderr.fd:
                    self._channels.on_event(fd)
                    continue
                self._stderr.drain()
                if self._stderr.fd is None:
                    poller.unregister(fd)

    def close(self) -> None:
        if self.fd is not None:
            try:
                self._stdin.close()
            except OSError:
                pass
            self.fd = None
            self.transcript.note("stdin closed")

    def input_closed(self) -> bool:
        """True when no process holds the read end of the bot's stdin any more (the bot
        closed it): the pipe then reports an error to the writer."""
        if self.closed_by_bot:
            return True
        if self.fd is None:
            return False
        poller = select.poll()
        poller.register(self.fd, 0)  # POLLERR is always reported
        return any(event & select.POLLERR for _, event in poller.poll(0))

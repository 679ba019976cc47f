"""The bot's output pipes: stdout cut into answer lines, stderr kept as it comes.

Both are read only when the bot's poll (`Bot._pump`) says they hold something, so the
judge sleeps in the kernel. Memory is bounded: a line is never kept past `max_line`
bytes (stdout is then no longer watched, and the bot blocks), stderr's recent lines
past the last 200.
"""

from __future__ import annotations

import os
import select
import time
from collections import deque
from dataclasses import dataclass
from typing import Callable

from .transcript import Transcript, show

READ_CHUNK = 65536
#: The longest single wait in the kernel; longer waits loop (poll takes a C int of ms).
MAX_WAIT_MS = 60_000
_MS = 1_000_000


@dataclass(frozen=True)
class Read:
    """What one read of an answer line gave."""

    kind: str  # "line", "timeout", "eof", "overflow"
    data: bytes  # the line without its line end, or the partial data
    t_ns: int  # when the read that completed it returned (perf_counter_ns)
    end: bytes = b""  # the line end that ended it: b"\n", b"\r" or b"\r\n" (cr_ends_line)


class AnswerReader:
    """The bot's stdout, read into a buffer and cut into lines (a non-blocking descriptor,
    read once the bot's poll says it holds something)."""

    def __init__(self, max_line: int, cr_ends_line: bool) -> None:
        #: The most bytes of one line, its line end included: no line end within them
        #: is an "overflow" (what that means is the referee's business).
        self.max_line = max_line
        #: CodinGame's runner ends a line at "\r" too, and drops an "\n" right after it;
        #: `Read.end` says which ending it was, so the referee can warn.
        self.cr_ends_line = cr_ends_line
        self.skip_lf = False
        self.buf = bytearray()

    def attach(self, fd: int, poller: select.poll, pump: Callable[[int], bool]) -> None:
        """Read `fd`, registered with `poller`, which `pump` waits on (the bot's poll)."""
        self.fd = fd
        os.set_blocking(fd, False)  # our end of the pipe: a read never waits
        self.open = True
        self.watched = True  # False while the line buffer is full: the bot then blocks
        self._poller = poller
        self._pump = pump

    def read_line(self, deadline_ns: int) -> Read:
        """Read one stdout line before the deadline. A deadline in the past only takes
        what is already there."""
        last_look = False
        while True:
            found = self._take_line()
            if found is not None:
                if not self.watched:
                    self.watch(True)
                return Read("line", found[0], time.perf_counter_ns(), found[1])
            if len(self.buf) >= self.max_line:
                return Read("overflow", bytes(self.buf[:64]), time.perf_counter_ns())
            if not self.watched:  # the buffer was full, and a skipped "\n" made room
                self.watch(True)
            if not self.open:
                return Read("eof", bytes(self.buf), time.perf_counter_ns())
            remaining = deadline_ns - time.perf_counter_ns()
            if remaining <= 0:
                if last_look:
                    return Read("timeout", bytes(self.buf), time.perf_counter_ns())
                last_look = True
                self._pump(0)
                continue
            self._pump(-(-remaining // _MS))

    def _take_line(self) -> tuple[bytes, bytes] | None:
        """Cut one line off the buffer, with its line end: up to "\n", or (cr_ends_line)
        up to "\r", "\r\n" counting as one ending. Only a line end within the first
        max_line bytes counts (a longer line is an overflow)."""
        buf = self.buf
        if self.skip_lf and buf:
            self.skip_lf = False
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
                self.skip_lf = not buf
                return line, b"\r"
        if nl < 0:
            return None
        line = bytes(buf[:nl])
        del buf[: nl + 1]
        return line, b"\n"

    def ready(self) -> bool:
        return bool(self.open and select.select([self.fd], [], [], 0)[0])

    def read_chunk(self) -> None:
        """Take what stdout holds, up to the room left in the line buffer."""
        size = min(READ_CHUNK, max(1, self.max_line - len(self.buf)))
        try:
            chunk = os.read(self.fd, size)
        except BlockingIOError:  # nothing there after all
            return
        except OSError:
            chunk = b""
        if not chunk:  # the end of the bot's output
            self.open = False
            self.watch(False)
            return
        self.buf += chunk
        if len(self.buf) >= self.max_line:
            self.watch(False)  # stop reading: memory stays bounded, no busy loop

    def watch(self, on: bool) -> None:
        """(Un)register stdout with the poller; reading resumes when the buffer drains."""
        on = on and self.open and len(self.buf) < self.max_line
        if on != self.watched:
            if on:
                self._poller.register(self.fd, select.POLLIN)
            else:
                self._poller.unregister(self.fd)
            self.watched = on

    def finish(self) -> None:
        """The bot is gone: whatever it wrote is in the pipe now; take it, but do not
        wait for EOF, which a child holding the pipe could hold back for ever."""
        while self.open and self.ready() and len(self.buf) < self.max_line:
            self.read_chunk()
        self.watch(False)
        self.open = False

    def drop_pending_lf(self) -> None:
        """The "\n" of a "\r\n" that came in two pieces ends the previous line."""
        if self.skip_lf and self.buf:
            self.skip_lf = False
            if self.buf[:1] == b"\n":
                del self.buf[:1]

    def take_all(self) -> bytes:
        """Everything in the buffer (up to max_line bytes), and read on."""
        data = bytes(self.buf[: self.max_line])
        self.buf.clear()
        self.watch(True)
        return data


class StderrLog:
    """The bot's stderr, drained as it comes (a bot blocked on a full stderr pipe would
    look like a timeout), one transcript entry a line; the last 200 lines kept."""

    def __init__(self, transcript: Transcript) -> None:
        self.transcript = transcript
        self.recent: deque[tuple[int, str]] = deque(maxlen=200)
        self.count = 0
        self.buf = bytearray()
        self.fd: int | None = None

    def attach(self, fd: int, poller: select.poll) -> None:
        self.fd = fd
        self._poller = poller

    def drain(self) -> None:
        if self.fd is None:
            return
        try:
            chunk = os.read(self.fd, READ_CHUNK)
        except BlockingIOError:
            return
        except OSError:
            chunk = b""
        now = time.perf_counter_ns()
        if not chunk:
            self._poller.unregister(self.fd)
            self.fd = None
            if self.buf:
                self._line(bytes(self.buf), now)
                self.buf.clear()
            return
        self.buf += chunk
        while (nl := self.buf.find(b"\n")) >= 0:
            self._line(bytes(self.buf[:nl]), now)
            del self.buf[: nl + 1]
        while len(self.buf) > 4096:  # a flood without newlines: keep it in pieces
            self._line(bytes(self.buf[:4096]), now)
            del self.buf[:4096]

    def _line(self, raw: bytes, t_ns: int) -> None:
        text = show(raw.decode("utf-8", "replace").rstrip("\r"))
        self.count += 1
        self.recent.append((self.count, text))
        self.transcript.stderr(text, t_ns)

    @property
    def tail(self) -> list[str]:
        return [text for _, text in list(self.recent)[-20:]]

    def since(self, mark: int) -> list[str]:
        """Stderr lines that came after `count` was `mark` (the last 200 at most)."""
        return [text for seq, text in self.recent if seq > mark]

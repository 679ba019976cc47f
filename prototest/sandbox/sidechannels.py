"""What the keeper and the signalfd report while a bot runs, beside its pipes.

The keeper writes one JSON line a report (see `prototest.sandbox.keeper`): the bot's
file operations and signals, processes it refused, reaped or killed, and the bot's exit.
The signalfd of `signalguard` holds the signals sent to prototest meanwhile: those the
bot's processes sent are events of the game, anyone else's act as they would have.
"""

from __future__ import annotations

import json
import os
import select
import time
from typing import Callable

from . import keeper
from .pipes import READ_CHUNK
from .signalguard import _guard, _outside_signal


class SideChannels:
    """The bot's side channels: the keeper's reports and the signalfd, read into `events`."""

    def __init__(self, argv: list[str], on_exit: Callable[[int], None]) -> None:
        self.argv = argv
        #: What the keeper and the signalfd saw: dicts with "e" = "file", "signal",
        #: "killed", "dropped" (see prototest.sandbox.keeper), and "t" (perf_counter_ns).
        self.events: list[dict] = []
        #: Pids of the bot's processes that the keeper reaped (a signal's sender may be gone).
        self.gone: set[int] = set()
        self._buf = bytearray()
        self.report_fd: int | None = None
        self.killed: list[dict] = []  # the keeper's reports of processes left over and killed
        self.dropped = 0
        self._side_poller: select.poll | None = None
        self._side_poller_fds: list[int] = []
        self._on_exit = on_exit
        self.pid = 0
        self.keeper_pid: int | None = None
        #: The bot's poll, once made (the report fd leaves it at its end).
        self.poller: select.poll | None = None

    def started(self, pid: int, keeper_pid: int | None, report_fd: int | None) -> None:
        self.pid, self.keeper_pid, self.report_fd = pid, keeper_pid, report_fd

    def fds(self) -> list[int]:
        """The keeper's reports and the signalfd: watched in every wait, beside the pipes."""
        fds = [self.report_fd] if self.report_fd is not None else []
        return fds + ([_guard.fd] if _guard.active else [])  # type: ignore[list-item]

    def on_event(self, fd: int) -> None:
        if fd == self.report_fd:
            self.read_reports()
        elif fd == _guard.fd:
            self.on_signals(_guard.read())

    def take_events(self, look: bool = True) -> list[dict]:
        """The events so far, and forget them; with `look`, first read what is waiting on
        the side channels (one poll, without blocking). Without it, only what the waits
        for the bot's lines brought in: an event that came before an answer line was read
        with it (its report was written before the bot could go on)."""
        fds = self.fds() if look else []
        if fds:
            if self._side_poller is None or self._side_poller_fds != fds:
                self._side_poller, self._side_poller_fds = select.poll(), fds
                for fd in fds:
                    self._side_poller.register(fd, select.POLLIN)
            for fd, _ in self._side_poller.poll(0):
                self.on_event(fd)
        events, self.events = self.events, []
        return events

    def read_reports(self) -> None:
        while self.report_fd is not None:
            try:
                chunk = os.read(self.report_fd, READ_CHUNK)
            except BlockingIOError:
                return
            except OSError:
                chunk = b""
            if not chunk:
                if self.poller is not None:
                    try:
                        self.poller.unregister(self.report_fd)
                    except KeyError:
                        pass
                os.close(self.report_fd)
                self.report_fd = None
                return
            self._buf += chunk
            *lines, rest = self._buf.split(b"\n")
            self._buf = bytearray(rest)
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
                    self.killed.append(event)
                elif kind == "dropped":
                    self.dropped += event.get("n", 0)
                else:
                    self.events.append(event)

    def on_signals(self, infos: list) -> None:
        """Signals sent to prototest while the bot runs: the bot's are events; the first
        from anyone else acts as before (an interrupt), once all are recorded."""
        for signum in self.sort_signals(infos):
            _outside_signal(signum)

    def sort_signals(self, infos: list) -> list[int]:
        """Record the signals the bot's processes sent as events; return the others'."""
        outside = []
        for info in infos:
            if info.sent_by_a_process and self._sent_by_bot(info.pid):
                self.events.append(self._signal_event(info))
            else:
                outside.append(info.signo)
        return outside

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
        if self.report_fd is not None:
            self.read_reports()  # a gone sender was reported before it was reaped
        return pid in self.gone

    def close(self) -> None:
        if self.report_fd is not None:
            os.close(self.report_fd)
            self.report_fd = None

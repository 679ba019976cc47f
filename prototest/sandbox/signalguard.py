"""The signals that could stop prototest, held while a bot runs.

While any bot runs, the signals of `interrupts.HELD` are blocked and read from one
signalfd, in the same poll as the bot's pipes: one sent by the bot's processes is an
event of the game, anyone else's acts as it would have (`_outside_signal`).
"""

from __future__ import annotations

import os
import signal

from . import interrupts


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
    """The one signal guard (`prototest.play.pool` holds it while its workers play)."""
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

"""Signals for the command line (standard library only, so the handlers are in place
before the heavy imports).

Every signal whose default action would end (or stop) prototest is handled: a user's
SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGXCPU,
SIGIO or SIGPWR is an interrupt as Ctrl-C is. (SIGPIPE and SIGXFSZ are ignored by Python
already: a write fails instead; SIGKILL and SIGSTOP cannot be caught.)

The first interrupt raises `Interrupted` wherever the program is, so the game in progress
stops and the bot is killed on the way out (`with bot:`); later ones are only noted, so
neither that clean-up nor the report of the games so far is cut short. Once the games
are over (`armed` False) a signal is ignored: the verdict is complete by then.

While a bot runs, these signals are blocked and read from a signalfd instead (see
`prototest.sandbox.process`), which names the sender: a signal that one of the bot's processes
sent is a finding against the bot, not an interrupt.
"""

from __future__ import annotations

import signal

#: Signals handled as an interrupt whenever they come from outside the bot.
INTERRUPTS = tuple(getattr(signal, name) for name in (
    "SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT", "SIGUSR1", "SIGUSR2", "SIGALRM", "SIGVTALRM",
    "SIGPROF", "SIGXCPU", "SIGIO", "SIGPWR", "SIGSTKFLT") if hasattr(signal, name))
#: Signals that stop a process; a bot's is a finding, a user's (Ctrl-Z) stops prototest as usual.
STOPS = tuple(getattr(signal, name) for name in ("SIGTSTP", "SIGTTIN", "SIGTTOU") if hasattr(signal, name))
#: Signals that are faults when the kernel sends them, and that end the process: left to
#: the kernel outside games (a Python handler cannot resume a real fault), read while a
#: bot runs (the kernel still delivers a real fault of prototest's own).
FAULTS = tuple(getattr(signal, name) for name in (
    "SIGTRAP", "SIGABRT", "SIGBUS", "SIGFPE", "SIGILL", "SIGSEGV", "SIGSYS") if hasattr(signal, name))
#: Real-time signals end a process by default; a user's is ignored, a bot's is a finding.
REALTIME = tuple(range(signal.SIGRTMIN, signal.SIGRTMAX + 1)) if hasattr(signal, "SIGRTMIN") else ()
#: Everything blocked and read from the signalfd while a bot runs.
HELD = frozenset(INTERRUPTS + STOPS + FAULTS + REALTIME)


try:  # the signal module's own wrapper makes an enum member of every signal in the mask it
    from _signal import pthread_sigmask as _pthread_sigmask  # returns: 50 us a call, 1 us without
except ImportError:  # pragma: no cover - another Python
    _pthread_sigmask = getattr(signal, "pthread_sigmask", None)


def sigmask(how: int, mask) -> set[int]:
    """signal.pthread_sigmask, the previous mask as a set of signal numbers."""
    return _pthread_sigmask(how, mask)  # type: ignore[misc]


def signal_name(signum: int) -> str:
    """SIGTERM, or SIGRTMIN+3 for a real-time signal."""
    try:
        return signal.Signals(signum).name
    except ValueError:
        if REALTIME and signal.SIGRTMIN < signum <= signal.SIGRTMAX:
            return f"SIGRTMIN+{signum - signal.SIGRTMIN}"
        return f"signal {signum}"


class Interrupted(KeyboardInterrupt):
    """A signal handled as Ctrl-C is; `signum` says which."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal_name(signum))
        self.signum = signum


class Signals:
    def __init__(self) -> None:
        self.first: int | None = None
        self.armed = True
        self.told = False

    def install(self) -> None:
        for signum in INTERRUPTS:
            signal.signal(signum, self.handle)
        for signum in REALTIME:  # a handler, not SIG_IGN: an exec resets it for the bot
            try:
                signal.signal(signum, _ignore)
            except OSError:  # a signal the host keeps for itself (valgrind reserves the last ones)
                pass

    def handle(self, signum: int, frame: object) -> None:
        if self.first is None and self.armed:
            self.first = signum
            raise Interrupted(signum)

    def ignore_all(self) -> None:
        """All is said: no signal may end prototest with another status now."""
        for signum in INTERRUPTS:
            signal.signal(signum, signal.SIG_IGN)


def _ignore(signum: int, frame: object) -> None:
    """A user's real-time signal: prototest has no use for one."""


signals = Signals()

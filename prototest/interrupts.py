"""Ctrl-C, SIGTERM and SIGHUP for the command line (standard library only, so the
handlers are in place before the heavy imports).

The first signal raises `Interrupted` wherever the program is, so the game in progress
stops and the bot is killed on the way out (`with bot:`); later ones are only noted, so
neither that clean-up nor the report of the games so far is cut short. Once the games
are over (`armed` False) a signal is ignored: the verdict is complete by then."""

from __future__ import annotations

import signal


class Interrupted(KeyboardInterrupt):
    """A signal handled as Ctrl-C is; `signum` says which."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


class Signals:
    def __init__(self) -> None:
        self.first: int | None = None
        self.armed = True
        self.told = False

    def install(self) -> None:
        for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            signal.signal(signum, self.handle)

    def handle(self, signum: int, frame: object) -> None:
        if self.first is None and self.armed:
            self.first = signum
            raise Interrupted(signum)


signals = Signals()


def main() -> None:
    """The `prototest` console script: handlers first, then the command line."""
    import sys

    signals.install()
    try:
        from .cli import main as cli_main
    except KeyboardInterrupt as exc:
        signum = getattr(exc, "signum", signal.SIGINT)
        print(f"prototest: interrupted ({signal.Signals(signum).name})", file=sys.stderr)
        sys.exit(128 + signum)
    cli_main()

"""The `prototest` command (the console script, and `python -m prototest`): the signal
handlers first (prototest.sandbox.interrupts is standard library only), then the command line,
whose imports are the heavy part of start-up. Ctrl-C during them ends prototest with
one line and the status a later one gives."""

from __future__ import annotations

import signal
import sys

from .sandbox.interrupts import signal_name, signals


def main() -> None:
    """Install the handlers, then import and run the command line."""
    signals.install()
    try:
        from .cli import main as cli_main
    except KeyboardInterrupt as exc:
        signum = getattr(exc, "signum", signal.SIGINT)
        print(f"prototest: interrupted ({signal_name(signum)})", file=sys.stderr)
        sys.exit(128 + signum)
    cli_main()

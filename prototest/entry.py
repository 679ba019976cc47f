"""The `prototest` command (the console script, and `python -m prototest`): the signal
handlers first (prototest.sandbox.interrupts is standard library only), then the command line,
whose imports are the heavy part of start-up. Ctrl-C during them ends prototest with
one line and the status a later one gives.

Started with PROTOTEST_READY_FD in its environment (by prototest.play.replayready, for a
fuzz failure's printed replay), the command does its imports, those of `prototest check`
included, before it has its arguments: then it reads them from that descriptor, one line of
JSON, and runs as if they had been given. Its environment no longer holds the variable; a
pipe closed before any line comes ends it at once, with status 0 and no output.
"""

from __future__ import annotations

import os
import signal
import sys
from typing import List, Optional

from .sandbox.interrupts import signal_name, signals

#: The descriptor a command started ahead reads its arguments from (see the docstring;
#: prototest.play.replayready.READY_FD names it too)
READY_FD = "PROTOTEST_READY_FD"


def main() -> None:
    """Install the handlers, then import and run the command line."""
    signals.install()
    try:
        from .cli import main as cli_main

        ready = os.environ.pop(READY_FD, None)
        argv = _arguments_when_ready(int(ready)) if ready else None
    except KeyboardInterrupt as exc:
        signum = getattr(exc, "signum", signal.SIGINT)
        print(f"prototest: interrupted ({signal_name(signum)})", file=sys.stderr)
        sys.exit(128 + signum)
    cli_main(argv)


def _arguments_when_ready(fd: int) -> Optional[List[str]]:
    """`prototest check`'s imports, then the arguments, read from `fd`."""
    import json

    from .commands import check  # noqa: F401 - the imports of `prototest check`, done ahead

    with os.fdopen(fd, "rb") as pipe:
        line = pipe.readline()
    if not line.strip():
        sys.exit(0)  # no command came: none is run
    argv = [str(arg) for arg in json.loads(line)]
    sys.argv[1:] = argv
    return argv

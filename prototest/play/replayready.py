"""`prototest check` started ahead of its command line: the printed replay of a fuzz
failure (prototest.play.replaycheck) is a fresh `prototest check` process, and most of such
a process's start is its imports (the command line, check, the sandbox: about 0.3 s of
every verdict). A campaign that has found a failure starts these processes while it
shortens it (`ReadyChecks`): each one is `python -m prototest`, which installs its signal
handlers and does its imports as always, then waits for its arguments on a pipe (see
prototest.entry) and runs them as the command would. Its standard input is /dev/null, as
a printed replay's is; its output, status and reports are the command's. The sweeps that
kill a bot's leftovers pass these processes by (prototest.sandbox.reaping.helpers).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Sequence

from ..sandbox import reaping

#: The variable that tells `prototest` to wait for its arguments (prototest.entry.READY_FD)
READY_FD = "PROTOTEST_READY_FD"


class ReadyChecks:
    """`prototest` processes started ahead, each taken once: `start(n)` has n of them
    waiting, `take(args)` hands one a command line (None when none is waiting: the caller
    starts the command itself), `close()` ends the rest."""

    def __init__(self) -> None:
        self._waiting: list[tuple[subprocess.Popen, int]] = []

    def start(self, count: int) -> None:
        while len(self._waiting) < count:
            read, write = os.pipe()
            try:
                proc = subprocess.Popen([sys.executable, "-m", "prototest"], pass_fds=(read,),
                                        env={**os.environ, READY_FD: str(read)}, stdin=subprocess.DEVNULL,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                        errors="replace")
            except OSError:
                os.close(write)
                return  # the replay starts its command itself
            finally:
                os.close(read)
            reaping.helpers.add(proc.pid)
            self._waiting.append((proc, write))

    def take(self, args: Sequence[str]) -> subprocess.Popen | None:
        """A waiting process, now running `prototest` with `args` (those after
        `prototest`); None when none is waiting."""
        while self._waiting:
            proc, write = self._waiting.pop(0)
            try:
                _write_all(write, (json.dumps(list(args)) + "\n").encode())
            except OSError:  # it died waiting: the next one, or the caller's own
                done(proc)
                continue
            finally:
                os.close(write)
            return proc
        return None

    def close(self) -> None:
        """End the processes still waiting (their pipe closed: each exits at once)."""
        waiting, self._waiting = self._waiting, []
        for _, write in waiting:
            os.close(write)
        for proc, _ in waiting:
            done(proc)


def done(proc: subprocess.Popen) -> None:
    """Wait for a helper's end (killed if it takes more than a few seconds); the sweeps
    no longer pass its pid by."""
    try:
        proc.communicate(timeout=5)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
    finally:
        reaping.helpers.discard(proc.pid)


def _write_all(fd: int, data: bytes) -> None:
    while data:
        data = data[os.write(fd, data):]

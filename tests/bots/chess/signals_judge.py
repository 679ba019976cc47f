#!/usr/bin/env python3
"""Fault: on its 2nd turn finds its judge (the outermost of its ancestors whose command line
names prototest) and sends $SIGNAL (default SIGTERM) to the judge's process group, or to the
judge itself with TARGET=process; then plays on, or exits at once with THEN=exit."""
import os
import signal
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import Bot  # noqa: E402


def parent_of(pid):
    with open(f"/proc/{pid}/stat") as fh:
        return int(fh.read().rsplit(")", 1)[1].split()[1])


def names_prototest(pid):
    with open(f"/proc/{pid}/cmdline", "rb") as fh:
        return b"prototest" in fh.read()


def judge():
    found, pid = None, os.getppid()
    while pid > 0:  # up to the first process it can see (pid 1)
        if names_prototest(pid):
            found = pid
        elif found is not None:
            break
        if pid == 1:
            break
        pid = parent_of(pid)
    return found


class SignalsJudge(Bot):
    def play_turn(self, last, mine, theirs, fen):
        if self.turn == 2:
            target, signum = judge(), getattr(signal, os.environ.get("SIGNAL", "SIGTERM"))
            if os.environ.get("TARGET") == "process":
                os.kill(target, signum)
            else:
                os.killpg(os.getpgid(target), signum)
            if os.environ.get("THEN") == "exit":
                os._exit(0)
        super().play_turn(last, mine, theirs, fen)


if __name__ == "__main__":
    SignalsJudge().run()

#!/usr/bin/env python3
"""Fault: on its 1st turn starts a fork storm instead of answering: a tree of FORK_DEPTH
(default 6) levels where each process forks two children and sleeps (127 processes, one
in four leaving its group with setsid), while the bot itself forks a child that exits at
once every 5 ms, for ever (so that processes are still being born when the judge kills
them). Bounded, so that it cannot take a shared machine down; mostly asleep, so that a
busy machine does not turn its timeout into a busy_machine warning."""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import Bot, sleep_forever  # noqa: E402


def tree(depth):
    """Fork two children, each growing its own tree one level less deep; then sleep."""
    for side in range(2):
        if depth > 0 and os.fork() == 0:
            if side and depth % 2:
                os.setsid()
            tree(depth - 1)
    sleep_forever()


def quiet():
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)


class ForkStorm(Bot):
    def play_turn(self, last, mine, theirs, fen):
        if os.fork() == 0:
            quiet()
            tree(int(os.environ.get("FORK_DEPTH", "6")))
        while True:  # churn: a child every few ms, each gone at once
            try:
                pid = os.fork()
            except OSError:
                continue
            if pid == 0:
                os._exit(0)
            os.waitpid(pid, 0)
            time.sleep(0.005)


if __name__ == "__main__":
    ForkStorm().run()

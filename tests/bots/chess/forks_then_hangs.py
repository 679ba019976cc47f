#!/usr/bin/env python3
"""Fault: at start-up forks two children that sleep for ever, one in its group and one that
left it (setsid); then reads its first turn line and hangs without answering."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import Bot, sleep_forever  # noqa: E402


def child(leave_group):
    if os.fork() == 0:
        if leave_group:
            os.setsid()
        devnull = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(devnull, fd)
        sleep_forever()


class ForksThenHangs(Bot):
    def start(self):
        child(False)
        child(True)

    def play_turn(self, last, mine, theirs, fen):
        sleep_forever()


if __name__ == "__main__":
    ForksThenHangs().run()

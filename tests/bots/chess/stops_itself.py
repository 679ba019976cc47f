#!/usr/bin/env python3
"""Fault: answers its 1st turn, then on its 2nd sends itself SIGSTOP (it stays stopped: only
SIGCONT or SIGKILL moves it; a SIGTERM waits until it is continued)."""
import os
import signal
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import Bot  # noqa: E402


class StopsItself(Bot):
    def play_turn(self, last, mine, theirs, fen):
        if self.turn >= 2:
            os.kill(os.getpid(), signal.SIGSTOP)
        super().play_turn(last, mine, theirs, fen)


if __name__ == "__main__":
    StopsItself().run()

#!/usr/bin/env python3
"""Fault: on its 2nd turn sends $SIGNAL (default SIGTERM) to its parent process (os.getppid()), then plays on."""
import os
import signal
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import Bot  # noqa: E402


class SignalsParent(Bot):
    def play_turn(self, last, mine, theirs, fen):
        if self.turn == 2:
            os.kill(os.getppid(), getattr(signal, os.environ.get("SIGNAL", "SIGTERM")))
        super().play_turn(last, mine, theirs, fen)


if __name__ == "__main__":
    SignalsParent().run()

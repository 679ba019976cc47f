#!/usr/bin/env python3
"""Not a fault: sleeps 0.7 s before its first answer, like a JVM starting (the limit is 1000 ms)."""
import time
import os
import sys

# This folder holds random.py: keep it behind the standard library on the path.
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != HERE] + [HERE]
from _common import Bot  # noqa: E402


class SlowStart(Bot):
    def choose(self, turn):
        if self.turn == 1:
            time.sleep(0.7)
        return super().choose(turn)


if __name__ == "__main__":
    SlowStart().run()

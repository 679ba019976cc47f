#!/usr/bin/env python3
"""Fault: sleeps 300 ms on its 3rd turn before answering (the limit is 150 ms)."""
import time
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import Bot  # noqa: E402


class TooSlow(Bot):
    def choose(self, turn):
        if self.turn == 3:
            time.sleep(0.3)
        return super().choose(turn)


if __name__ == "__main__":
    TooSlow().run()

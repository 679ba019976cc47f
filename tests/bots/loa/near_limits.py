#!/usr/bin/env python3
"""Fault: answers close to its limits: 1.65 s on its 1st turn, 245 ms on turns 2 to 4 (over 80 % of the 2000 ms and 300 ms that --time-scale 2 gives)."""
import time
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import Bot  # noqa: E402


class NearLimits(Bot):
    def choose(self, turn):
        if self.turn == 1:
            time.sleep(1.65)
        elif self.turn <= 4:
            time.sleep(0.245)
        return super().choose(turn)


if __name__ == "__main__":
    NearLimits().run()

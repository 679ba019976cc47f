#!/usr/bin/env python3
"""Fault: answers close to its limits: 2.6 s on its 1st turn, 330 ms on turns 2 to 4 (65 % and 55 % of the 4000 ms and 600 ms
that --time-scale 4 gives: over the 50 % its test sets as near_limit_percent, far enough below the limits that a
busy machine does not push an answer past them; the first answer, which holds the interpreter's start, is further
over: the time a busy machine kept from it is taken off before it is compared)."""
import time
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import Bot  # noqa: E402


class NearLimits(Bot):
    def choose(self, turn):
        if self.turn == 1:
            time.sleep(2.6)
        elif self.turn <= 4:
            time.sleep(0.33)
        return super().choose(turn)


if __name__ == "__main__":
    NearLimits().run()

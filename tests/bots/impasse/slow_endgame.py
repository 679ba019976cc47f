#!/usr/bin/env python3
"""Fault: with five checkers or fewer left on the board it searches the endgame to the end, which takes 300 ms (the limit is 100 ms)."""
import os
import sys
import time

# This folder holds random.py: keep it behind the standard library on the path.
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != HERE] + [HERE]
from _common import Bot, own_checkers  # noqa: E402

ENDGAME = 5  # checkers on the board (a double counts 2)
SEARCH_S = 0.300  # what the exhaustive search costs it


class SlowEndgame(Bot):
    def choose(self, turn):
        if own_checkers(turn) <= ENDGAME:
            time.sleep(SEARCH_S)
        return super().choose(turn)


if __name__ == "__main__":
    SlowEndgame().run()

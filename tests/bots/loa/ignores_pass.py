#!/usr/bin/env python3
"""Fault: never answers pass: when `pass` is the only listed move it moves its first checker to a neighbour."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import Bot, name  # noqa: E402


class IgnoresPass(Bot):
    def choose(self, turn):
        if turn.moves != ["pass"]:
            return super().choose(turn)
        f, r = turn.own_squares()[0]
        for df, dr in ((1, 0), (0, 1), (1, 1), (-1, 0), (0, -1), (-1, -1), (1, -1), (-1, 1)):
            if 0 <= f + df < 8 and 0 <= r + dr < 8:
                return name(f, r) + name(f + df, r + dr)
        return "pass"  # unreachable: every square has a neighbour


if __name__ == "__main__":
    IgnoresPass().run()

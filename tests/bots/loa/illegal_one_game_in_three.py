#!/usr/bin/env python3
"""Fault: on its 4th turn, in about one game out of three (decided from the board it is shown), moves a checker onto one of its own."""
import os
import sys
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import Bot, name  # noqa: E402


class IllegalOneGameInThree(Bot):
    # The decision is a hash of the board of its 4th turn, so it is the same for the same
    # game (a check's seed gives the same games) and differs between games: over 900
    # games (seeds 1-3, 300 each) 287 failed, 0.32.
    def choose(self, turn):
        if self.turn == 4 and zlib.crc32("/".join(turn.rows).encode()) % 3 == 0:
            first, second = turn.own_squares()[:2]
            return name(*first) + name(*second)  # onto its own checker: never legal
        return super().choose(turn)


if __name__ == "__main__":
    IllegalOneGameInThree().run()

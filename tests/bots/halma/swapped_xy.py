#!/usr/bin/env python3
"""Fault: writes each point as `y x` instead of `x y` (a move whose swap is illegal)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import Bot, points, refused, text  # noqa: E402


class SwappedXY(Bot):
    # The start is symmetric about the diagonal, so the swap of a legal move can be legal
    # too: it chooses among the moves whose swap the referee refuses, when there are some.
    def choose(self, position):
        bad = [m for m in position.legal_moves() if refused(position, self.swap(m))]
        if bad:
            return self.rng.choice(bad)
        return super().choose(position)

    @staticmethod
    def swap(move):
        return text((y, x) for x, y in points(move))

    def format(self, move):
        return "move " + self.swap(move)


if __name__ == "__main__":
    SwappedXY().run()

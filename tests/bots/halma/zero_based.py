#!/usr/bin/env python3
"""Fault: writes its moves with 0-based coordinates (`move 3 1 4 2` for `move 4 2 5 3`)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import Bot, points, refused, text  # noqa: E402


class ZeroBased(Bot):
    def choose(self, position):
        # Prefer a move the 0-based writing puts off the board (a 0), then any move the
        # shift makes illegal: a shifted move can happen to be legal too.
        moves = list(position.legal_moves())
        off = [m for m in moves if 1 in points(m)[0] + points(m)[-1]]
        bad = [m for m in moves if refused(position, self.shift(m))]
        return self.rng.choice(off or bad or moves)

    @staticmethod
    def shift(move):
        return text((x - 1, y - 1) for x, y in points(move))

    def format(self, move):
        return "move " + self.shift(move)


if __name__ == "__main__":
    ZeroBased().run()

#!/usr/bin/env python3
"""Fault: plays a knight-shaped hop (the referee accepts it, the statement forbids it) whenever one leads towards its home."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import KNIGHT, Bot, cell, text  # noqa: E402


class KnightHop(Bot):
    def choose(self, position):
        # The referee's "midpoint" of a knight hop is prev + (to - prev) / 2 with Rust's
        # truncating division: the orthogonal neighbour along the long axis.
        forward = 1 if position.turn() == 0 else -1  # player 1's home is bottom-right
        for x, y in self.mine():
            for dx, dy in KNIGHT:
                if (dx + dy) * forward != 3:
                    continue
                over = (x + int(dx / 2), y + int(dy / 2))
                if cell(position, *over) in "12" and cell(position, x + dx, y + dy) == ".":
                    return text([(x, y), (x + dx, y + dy)])
        return super().choose(position)


if __name__ == "__main__":
    KnightHop().run()

#!/usr/bin/env python3
"""Fault: with two pieces or fewer outside home it plans each one's way home in a buffer of five steps, so a straggler six or more steps from a free home cell crashes it (IndexError)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import Bot, cell, home, king_distance  # noqa: E402

PLAN = 5  # steps a plan can hold: the author's stragglers were never further


class StragglerPathBuffer(Bot):
    def choose(self, position):
        cells = home(self.seat)
        outside = [p for p in self.mine() if p not in cells]
        free = [c for c in cells if cell(position, *c) == "."]
        if outside and len(outside) <= 2 and free:
            for piece in outside:
                plan = [None] * PLAN
                target = min(free, key=lambda c: king_distance(c, piece))
                x, y = piece
                for i in range(king_distance(piece, target)):  # one king step at a time
                    x += (target[0] > x) - (target[0] < x)
                    y += (target[1] > y) - (target[1] < y)
                    plan[i] = (x, y)  # IndexError past 5 steps
        return super().choose(position)


if __name__ == "__main__":
    StragglerPathBuffer().run()

#!/usr/bin/env python3
"""Fault: on its 2nd turn (or the first one after where it can) answers a step followed by a jump."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import DIRECTIONS, Bot, cell, text  # noqa: E402


class StepThenJump(Bot):
    def format(self, move):
        if self.turn >= 2:
            for x, y in self.mine():
                for sx, sy in DIRECTIONS:
                    a, b = x + sx, y + sy
                    if cell(self.position, a, b) != ".":
                        continue
                    for dx, dy in DIRECTIONS:
                        over, land = (a + dx, b + dy), (a + 2 * dx, b + 2 * dy)
                        if over != (x, y) and land != (x, y) and cell(self.position, *over) in "12" \
                                and cell(self.position, *land) == ".":
                            return "move " + text([(x, y), (a, b), land])
        return super().format(move)


if __name__ == "__main__":
    StepThenJump().run()

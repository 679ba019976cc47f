#!/usr/bin/env python3
"""Fault: on its 2nd turn jumps over a neighbour and back (`x y x+2 y x y`): a cell visited twice."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import DIRECTIONS, Bot, cell, text  # noqa: E402


class RevisitsCell(Bot):
    def format(self, move):
        if self.turn >= 2:
            for x, y in self.mine():
                for dx, dy in DIRECTIONS:
                    if cell(self.position, x + dx, y + dy) in "12" and cell(self.position, x + 2 * dx, y + 2 * dy) == ".":
                        return "move " + text([(x, y), (x + 2 * dx, y + 2 * dy), (x, y)])
        return super().format(move)


if __name__ == "__main__":
    RevisitsCell().run()

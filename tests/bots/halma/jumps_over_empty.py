#!/usr/bin/env python3
"""Fault: on its 2nd turn answers a jump of two cells over an empty cell."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import DIRECTIONS, Bot, cell, text  # noqa: E402


class JumpsOverEmpty(Bot):
    def format(self, move):
        if self.turn >= 2:
            for x, y in self.mine():
                for dx, dy in DIRECTIONS:
                    if cell(self.position, x + dx, y + dy) == "." and cell(self.position, x + 2 * dx, y + 2 * dy) == ".":
                        return "move " + text([(x, y), (x + 2 * dx, y + 2 * dy)])
        return super().format(move)


if __name__ == "__main__":
    JumpsOverEmpty().run()

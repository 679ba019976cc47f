#!/usr/bin/env python3
"""Fault: on its 2nd turn steps one of the opponent's pieces to an empty neighbouring cell."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import DIRECTIONS, Bot, cell, text  # noqa: E402


class MovesOpponentPiece(Bot):
    def format(self, move):
        if self.turn >= 2:
            theirs = self.position.pieces(1 - self.position.turn())
            for x, y in theirs:
                for dx, dy in DIRECTIONS:
                    if cell(self.position, x + dx, y + dy) == ".":
                        return "move " + text([(x, y), (x + dx, y + dy)])
        return super().format(move)


if __name__ == "__main__":
    MovesOpponentPiece().run()

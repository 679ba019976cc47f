#!/usr/bin/env python3
"""Fault: never moves the piece on its own corner cell, so from ply 200 it is a blocker and loses."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import Bot, points  # noqa: E402


class KeepsACornerPiece(Bot):
    def choose(self, position):
        corner = (1, 1) if position.turn() == 0 else (16, 16)
        move = super().choose(position)
        if points(move)[0] != corner:
            return move
        # The greedy move would free the corner: take the move that advances another piece most.
        forward = 1 if position.turn() == 0 else -1  # player 1's home is bottom-right
        others = [m for m in position.legal_moves() if points(m)[0] != corner]
        return max(others, key=lambda m: (forward * (sum(points(m)[-1]) - sum(points(m)[0])), m))


if __name__ == "__main__":
    KeepsACornerPiece().run()

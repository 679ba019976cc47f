#!/usr/bin/env python3
"""Fault: reads the board lines upside down (first line as rank 1) and plays its own move from that."""
import os
import sys

# This folder holds random.py: keep it behind the standard library on the path.
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != HERE] + [HERE]
from _common import FILES, FORWARD, Bot  # noqa: E402


class UpsideDown(Bot):
    def choose(self, turn):
        # The misread: the first board line is taken as rank 1 (it is rank 8).
        board = {f"{FILES[f]}{r + 1}": turn.rows[r][f] for r in range(8) for f in range(8)}
        step = FORWARD[turn.colour]
        fallback = None
        for square in sorted(board):  # a single of its colour, one square diagonally forward
            if board[square] != turn.colour:
                continue
            rank = int(square[1]) + step
            for file in (FILES.index(square[0]) - 1, FILES.index(square[0]) + 1):
                if 0 <= file < 8 and 1 <= rank <= 8:
                    target = f"{FILES[file]}{rank}"
                    if board[target] == ".":
                        return square + target
                    fallback = fallback or square + target
        return fallback or turn.moves[0]  # the listed moves are never consulted otherwise


if __name__ == "__main__":
    UpsideDown().run()

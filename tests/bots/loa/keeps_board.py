#!/usr/bin/env python3
"""Not a fault: keeps its own board between turns and asserts, like a C++ `assert`, that it equals the board sent; it aborts when started in a position it did not play to."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import FILES, Bot  # noqa: E402

INITIAL = [".bbbbbb."] + ["w......w"] * 6 + [".bbbbbb."]  # rank 8 first


class KeepsBoard(Bot):
    # A real bot's shape: the board is its own, updated from the opponent's last move
    # and from its own answers; the lines sent are only checked against it. From the
    # initial position in a real game the check always holds.
    def __init__(self):
        super().__init__()
        self.board = [list(row) for row in INITIAL]

    def play(self, move):
        """Apply a move (`e2e3`; a capture just overwrites the square)."""
        (f1, r1), (f2, r2) = [(FILES.index(move[i]), int(move[i + 1]) - 1) for i in (0, 2)]
        self.board[7 - r2][f2] = self.board[7 - r1][f1]
        self.board[7 - r1][f1] = "."

    def choose(self, turn):
        if turn.last_move not in ("null", "pass"):
            self.play(turn.last_move)
        if ["".join(row) for row in self.board] != turn.rows:
            sys.stderr.write("keeps_board.py: Assertion 'board == sent' failed.\n")
            sys.stderr.flush()
            os.abort()
        move = super().choose(turn)
        if move != "pass":
            self.play(move)
        return move


if __name__ == "__main__":
    KeepsBoard().run()

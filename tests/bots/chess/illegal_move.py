#!/usr/bin/env python3
"""Fault: on its 2nd turn answers a well-formed move from an empty square (illegal)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import chess  # noqa: E402
from _common import Bot  # noqa: E402


class IllegalMove(Bot):
    def choose(self, board):
        if self.turn != 2:
            return super().choose(board)
        for frm in chess.SQUARES:  # an empty square next to another empty square
            if board.piece_at(frm) is None:
                for to in chess.SquareSet(chess.BB_KING_ATTACKS[frm]):
                    if board.piece_at(to) is None:
                        return chess.Move(frm, to)
        return super().choose(board)


if __name__ == "__main__":
    IllegalMove().run()

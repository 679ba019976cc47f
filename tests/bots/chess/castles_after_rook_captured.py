#!/usr/bin/env python3
"""Fault: judges its kingside castling right from its own king and rook moves only (not the FEN), so it castles after its rook was captured on h1/h8."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import chess  # noqa: E402
from _common import Bot  # noqa: E402


class CastlesAfterRookCaptured(Bot):
    def __init__(self):
        super().__init__()
        self.moved = False  # its king or its h-rook has moved (by its own moves)

    def choose(self, board):
        rank = 0 if board.turn == chess.WHITE else 7
        king, f, g, corner = (chess.square(file, rank) for file in (4, 5, 6, 7))
        if not self.moved and board.king(board.turn) == king and not board.piece_at(f) and not board.piece_at(g):
            return chess.Move(king, g)  # "O-O", whatever stands on the corner now
        move = super().choose(board)
        if move is not None and move.from_square in (king, corner):
            self.moved = True
        return move


if __name__ == "__main__":
    CastlesAfterRookCaptured().run()

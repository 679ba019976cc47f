#!/usr/bin/env python3
"""Fault: writes promotions in five characters with the piece (`e7e8q`)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import chess  # noqa: E402
from _common import Bot, candidates, rng  # noqa: E402


class Promotion5(Bot):
    """Races a pawn to the last rank so the fault shows up quickly."""

    def choose(self, board):
        moves = candidates(board)
        promotions = [m for m in moves if m.promotion]
        if promotions:
            return promotions[0]
        pawn_moves = [m for m in moves if board.piece_type_at(m.from_square) == chess.PAWN]
        if not pawn_moves:
            return super().choose(board)

        def progress(m):  # how far the pawn gets, then how far it already was
            to, frm = chess.square_rank(m.to_square), chess.square_rank(m.from_square)
            return (to, frm) if board.turn == chess.WHITE else (7 - to, 7 - frm)
        best = max(map(progress, pawn_moves))
        return rng(board).choice([m for m in pawn_moves if progress(m) == best])

    def format(self, board, move):
        return move.uci() if move.promotion else super().format(board, move)


if __name__ == "__main__":
    Promotion5().run()

#!/usr/bin/env python3
"""Fault: plays an en passant capture whenever one is legal, but writes it onto the pawn it takes (e5d5, not e5d6)."""
import chess

from _common import Bot


class EnPassant(Bot):
    def choose(self, board):
        for move in board.legal_moves:
            if board.is_en_passant(move):
                return move
        return super().choose(board)

    def format(self, board, move):
        if board.is_en_passant(move):  # the planted bug: the captured pawn's square
            behind = move.to_square + (-8 if board.turn == chess.WHITE else 8)
            return chess.square_name(move.from_square) + chess.square_name(behind)
        return super().format(board, move)


if __name__ == "__main__":
    EnPassant().run()

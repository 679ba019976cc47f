#!/usr/bin/env python3
"""Fault: writes castling as the king's two-square move (`e1g1`) and castles early."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import chess  # noqa: E402
from _common import Bot, candidates, rng  # noqa: E402

F = chess.BB_FILES  # F[0] is the a-file
# Kingside, then queenside: the files between king and rook, and the files of the pawns
# that shut a back-rank piece in (e/g free the f-bishop; b/d the c-bishop, c/e the queen).
SIDES = ((F[5] | F[6], F[4] | F[6]), (F[1] | F[2] | F[3], F[1] | F[2] | F[3] | F[4]))


class CastleE1G1(Bot):
    def choose(self, board):
        moves = candidates(board)
        castles = [m for m in moves if board.is_castling(m)]
        if castles:
            return max(castles, key=board.is_kingside_castling)
        if not moves or not board.has_castling_rights(board.turn):
            return super().choose(board)
        back = chess.BB_RANK_1 if board.turn == chess.WHITE else chess.BB_RANK_8
        home = chess.BB_RANK_2 if board.turn == chess.WHITE else chess.BB_RANK_7
        free = [m for m in moves if board.piece_type_at(m.from_square) not in (chess.KING, chess.ROOK)]
        rights = (board.has_kingside_castling_rights(board.turn),
                  board.has_queenside_castling_rights(board.turn))
        for (between, pawns), right in zip(SIDES, rights):
            if right:
                clear = [m for m in free if chess.BB_SQUARES[m.from_square] & between & back]
                opening = [m for m in free if board.piece_type_at(m.from_square) == chess.PAWN
                           and chess.BB_SQUARES[m.from_square] & pawns & home]
                if clear or opening:  # move a piece off the way, else let it out
                    return rng(board).choice(clear or opening)
        return rng(board).choice(free or moves)

    def format(self, board, move):
        return move.uci()[:4]  # castling comes out as the king's move: e1g1, e8c8...


if __name__ == "__main__":
    CastleE1G1().run()

#!/usr/bin/env python3
"""Fault: plays from its own move generator, whose attack test lets a king attack only the four squares beside it, so its king may step diagonally next to the other king."""
from _common import ROOK_RAYS, Bot, choose_among, own_moves


class KingNextToKing(Bot):
    # The king's steps in the attack test were copied from the rook's directions: the
    # four diagonal neighbours of the enemy king look safe.
    def choose(self, board):
        return choose_among(board, own_moves(board, king_steps=ROOK_RAYS))


if __name__ == "__main__":
    KingNextToKing().run()

#!/usr/bin/env python3
"""Fault: computes its own moves allowing jumps over enemy checkers, and prefers those moves."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import Bot, own_moves  # noqa: E402


class JumpsEnemy(Bot):
    def choose(self, turn):
        mine = own_moves(turn, jump_enemy=True)
        jumps = [move for move, jumps in mine if jumps]
        if jumps:
            return turn.rng().choice(jumps)
        return turn.rng().choice([move for move, _ in mine]) if mine else "pass"


if __name__ == "__main__":
    JumpsEnemy().run()

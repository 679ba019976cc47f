#!/usr/bin/env python3
"""Fault: computes its own moves, counting only its own checkers on a line (the count includes the enemy's)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import Bot, own_moves  # noqa: E402


class OwnCount(Bot):
    def choose(self, turn):
        mine = [move for move, _ in own_moves(turn, count_enemy=False)]
        return turn.rng().choice(mine) if mine else "pass"


if __name__ == "__main__":
    OwnCount().run()

#!/usr/bin/env python3
"""Fault: computes its own moves and looks for an enemy checker in the way on the first three squares of a path only, so a long move may jump one."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import Bot, own_choice, own_moves  # noqa: E402


class LongPathEnemy(Bot):
    # The path check was written for moves of up to four squares: a move of five or more
    # over an enemy checker on its fourth square or later looks legal to it.
    def choose(self, turn):
        return own_choice(turn, [move for move, _ in own_moves(turn, enemy_look=3)])


if __name__ == "__main__":
    LongPathEnemy().run()

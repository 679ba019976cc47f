#!/usr/bin/env python3
"""Fault: remembers its move for each position between turns, keyed by its own checkers only, and replays it when its checkers stand as before although the enemy's have moved."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import Bot  # noqa: E402


class CacheOwnCheckers(Bot):
    # A transposition table kept for the whole game, whose key leaves the enemy's
    # checkers out: when its checkers are back where they stood on an earlier turn, it
    # plays that turn's move, which the enemy's checkers may now block or lengthen.
    def __init__(self):
        super().__init__()
        self.table = {}

    def choose(self, turn):
        key = tuple(turn.own_squares())
        if key not in self.table:
            self.table[key] = super().choose(turn)
        return self.table[key]


if __name__ == "__main__":
    CacheOwnCheckers().run()

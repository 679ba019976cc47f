#!/usr/bin/env python3
"""Fault (no failure): picks a random legal move, seeded by the clock, so the same position gets different answers."""
import os
import random

from _common import Bot, candidates


class RandomAnswers(Bot):
    def choose(self, board):
        moves = candidates(board)
        return random.Random(os.urandom(8)).choice(moves) if moves else None


if __name__ == "__main__":
    RandomAnswers().run()

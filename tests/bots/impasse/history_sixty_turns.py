#!/usr/bin/env python3
"""Fault: keeps its answers in a table of 60 turns, so a game that lasts past its 60th turn (about ply 120 of the 250 allowed) crashes it."""
import os
import sys

# This folder holds random.py: keep it behind the standard library on the path.
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != HERE] + [HERE]
from _common import Bot  # noqa: E402

MAX_TURNS = 60  # the longest game its author watched; the referee allows 250 plies


class HistorySixtyTurns(Bot):
    def __init__(self):
        super().__init__()
        self.history = [None] * MAX_TURNS

    def choose(self, turn):
        move = super().choose(turn)
        self.history[self.turn - 1] = move  # IndexError on turn 61
        return move


if __name__ == "__main__":
    HistorySixtyTurns().run()

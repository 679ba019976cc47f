#!/usr/bin/env python3
"""Fault: when a bear-off frees the single that crowns (`c3a1a1`), writes the move without its crown (`c3a1`)."""
import os
import sys

# This folder holds random.py: keep it behind the standard library on the path.
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != HERE] + [HERE]
from _common import Bot  # noqa: E402


def crowns_after_bear_off(move):
    return len(move) == 6 and move[2:4] == move[4:6]


class CrownAfterBearOff(Bot):
    # It plays such a move whenever one is listed, and forgets that the single it
    # just created by bearing off can be the crown's source.
    def choose(self, turn):
        rare = [m for m in turn.moves if crowns_after_bear_off(m)]
        return rare[0] if rare else super().choose(turn)

    def format(self, turn, move):
        return move[:4] if crowns_after_bear_off(move) else move


if __name__ == "__main__":
    CrownAfterBearOff().run()

#!/usr/bin/env python3
"""Fault: keeps its own count of checkers taken off, forgets that a transpose can bear off, and aborts on an assert when the count and the board disagree."""
import os
import sys

# This folder holds random.py: keep it behind the standard library on the path.
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != HERE] + [HERE]
from _common import Bot, checkers_taken_off, own_checkers  # noqa: E402


class TransposeBearOffCount(Bot):
    # The count (for its endgame plan) starts from the first board it is shown and is
    # checked against the board every turn like a C++ assert. A transpose onto a single in
    # its nearest row makes a double there, which bears off at once; the count misses it,
    # and the next turn's check aborts.
    def __init__(self):
        super().__init__()
        self.off = None

    def choose(self, turn):
        if self.off is None:
            self.off = 12 - own_checkers(turn)
        if self.off != 12 - own_checkers(turn):
            sys.stderr.write("transpose_bear_off_count.py: Assertion 'off == 12 - on_board' failed.\n")
            sys.stderr.flush()
            os.abort()
        move = super().choose(turn)
        self.off += checkers_taken_off(turn, move, transpose_bears_off=False)
        return move


if __name__ == "__main__":
    TransposeBearOffCount().run()

#!/usr/bin/env python3
"""Fault: on its 2nd turn its answer line (move, space, comment, newline) is 10,001 bytes, one more than the runner reads in a turn.

LINE_BYTES in the environment sets that length instead (10000: the longest line that counts).
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import Bot  # noqa: E402

LINE_BYTES = int(os.environ.get("LINE_BYTES", "10001"))  # the newline included


class LineOver10000(Bot):
    def format(self, turn, move):
        if self.turn != 2:
            return move
        return move + " " + "x" * (LINE_BYTES - len(move) - 2)


if __name__ == "__main__":
    LineOver10000().run()

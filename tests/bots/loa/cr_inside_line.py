#!/usr/bin/env python3
"""Fault: on its 2nd turn writes `b1b3\rjunk\n`: the runner ends a line at the lone \r, plays the move, and reads `junk` as its next answer."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import Bot  # noqa: E402


class CrInsideLine(Bot):
    def format(self, turn, move):
        return move + "\rjunk" if self.turn == 2 else move


if __name__ == "__main__":
    CrInsideLine().run()

#!/usr/bin/env python3
"""Accepted with a warning: a 30-character comment after every move (the viewer keeps 15)."""
import os
import sys

# This folder holds random.py: keep it behind the standard library on the path.
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != HERE] + [HERE]
from _common import Bot  # noqa: E402

COMMENT = "thinking about it very hard..."  # 30 characters
assert len(COMMENT) == 30


class LongComment(Bot):
    def format(self, turn, move):
        return move + " " + COMMENT


if __name__ == "__main__":
    LongComment().run()

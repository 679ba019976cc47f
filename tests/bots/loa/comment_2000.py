#!/usr/bin/env python3
"""Accepted with a warning: a 2,000-character comment after every move (a 2,005-byte line: over 1,024, within the 10,000 the runner reads)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import Bot  # noqa: E402


class Comment2000(Bot):
    def format(self, turn, move):
        return move + " " + "x" * 2000


if __name__ == "__main__":
    Comment2000().run()

#!/usr/bin/env python3
"""Accepted with a warning: a tab, not a space, before its comment (`b1b3\tdbg`); the referee reads the move up to the first space and matches it by prefix."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import Bot  # noqa: E402


class TabBeforeComment(Bot):
    def format(self, turn, move):
        return move + "\tdbg"


if __name__ == "__main__":
    TabBeforeComment().run()

#!/usr/bin/env python3
"""Not a fault: every move is followed by a space and a short comment (`d2e3 hello :)`)."""
import os
import sys

# This folder holds random.py: keep it behind the standard library on the path.
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != HERE] + [HERE]
from _common import Bot  # noqa: E402


class Comment(Bot):
    def format(self, turn, move):
        return move + " hello :)"


if __name__ == "__main__":
    Comment().run()

#!/usr/bin/env python3
"""Fault: a tab after every move (`c7a5\t`): Impasse compares the text before the first space with equals(), tab included, and refuses it."""
import os
import sys

# This folder holds random.py: keep it behind the standard library on the path.
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != HERE] + [HERE]
from _common import Bot  # noqa: E402


class TabAfterMove(Bot):
    def format(self, turn, move):
        return move + "\t"


if __name__ == "__main__":
    TabAfterMove().run()

#!/usr/bin/env python3
"""Accepted with a warning: writes `junk` right after every move (`e2e3junk`); the referee compares prefixes."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import Bot  # noqa: E402


class JunkSuffix(Bot):
    def format(self, turn, move):
        return move + "junk"


if __name__ == "__main__":
    JunkSuffix().run()

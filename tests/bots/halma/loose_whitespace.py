#!/usr/bin/env python3
"""Fault: separates the numbers of its answers with a tab and 'move' from them with two spaces (`move  1\t3\t3\t5`)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import Bot  # noqa: E402


class LooseWhitespace(Bot):
    def format(self, move):
        return "move  " + "\t".join(move.split())


if __name__ == "__main__":
    LooseWhitespace().run()

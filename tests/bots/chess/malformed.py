#!/usr/bin/env python3
"""Fault: on its first turn answers `e2-e4` instead of the four-character format."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import Bot  # noqa: E402


class Malformed(Bot):
    def format(self, board, move):
        return "e2-e4" if self.turn == 1 else super().format(board, move)


if __name__ == "__main__":
    Malformed().run()

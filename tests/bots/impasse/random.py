#!/usr/bin/env python3
"""Accepted with a warning: answers `random` on every turn (the referee picks a move for it)."""
import os
import sys

# This folder holds random.py: keep it behind the standard library on the path.
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != HERE] + [HERE]
from _common import Bot  # noqa: E402


class RandomAnswer(Bot):
    def choose(self, turn):
        return "random"


if __name__ == "__main__":
    RandomAnswer().run()

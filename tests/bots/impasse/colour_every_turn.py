#!/usr/bin/env python3
"""Fault: expects the colour line on every turn, so from its 2nd turn it reads the board one line off."""
import os
import sys

# This folder holds random.py: keep it behind the standard library on the path.
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != HERE] + [HERE]
from _common import Bot  # noqa: E402


class ColourEveryTurn(Bot):
    def read_turn(self):
        self.colour = None  # as if the colour came first on every turn
        return super().read_turn()


if __name__ == "__main__":
    ColourEveryTurn().run()

#!/usr/bin/env python3
"""Fault: on its 2nd turn answers an impasse removal (one square, its own single) although slides exist."""
import os
import sys

# This folder holds random.py: keep it behind the standard library on the path.
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != HERE] + [HERE]
from _common import Bot  # noqa: E402


class ImpasseWhileSlide(Bot):
    def choose(self, turn):
        if self.turn == 2:
            for rank in range(1, 9):
                for file in "abcdefgh":
                    if turn.at(f"{file}{rank}") == turn.colour:
                        return f"{file}{rank}"
        return super().choose(turn)


if __name__ == "__main__":
    ImpasseWhileSlide().run()

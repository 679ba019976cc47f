#!/usr/bin/env python3
"""Not a fault: writes its turn number as a comment after every move (`b1b3 t7`), as bots show their own figures in the viewer; started cold in a later position it comments `t1` and plays the same move."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import Bot  # noqa: E402


class TurnInComment(Bot):
    def format(self, turn, move):
        return f"{move} t{self.turn}"


if __name__ == "__main__":
    TurnInComment().run()

#!/usr/bin/env python3
"""Fault: raises an uncaught exception on its third turn, before answering (exit 1)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import Bot  # noqa: E402


class Crash(Bot):
    def choose(self, board):
        if self.turn == 3:
            raise RuntimeError("crash_third_turn: deliberate crash on turn 3")
        return super().choose(board)


if __name__ == "__main__":
    Crash().run()

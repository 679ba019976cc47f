#!/usr/bin/env python3
"""Fault: on its 1st turn renames `state.txt` (in the folder it runs in, if there) to `state.txt.old`, before answering."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import Bot  # noqa: E402


class RenamesFile(Bot):
    def play_turn(self, last, mine, theirs, fen):
        if self.turn == 1 and os.path.exists("state.txt"):
            os.rename("state.txt", "state.txt.old")
        super().play_turn(last, mine, theirs, fen)


if __name__ == "__main__":
    RenamesFile().run()

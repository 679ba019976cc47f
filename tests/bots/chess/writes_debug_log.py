#!/usr/bin/env python3
"""Fault: appends a line to `debug.log` (in the folder it runs in) on every turn, before answering."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import Bot  # noqa: E402


class WritesDebugLog(Bot):
    def play_turn(self, last, mine, theirs, fen):
        with open("debug.log", "a") as log:
            log.write(f"turn {self.turn}: {fen}\n")
        super().play_turn(last, mine, theirs, fen)


if __name__ == "__main__":
    WritesDebugLog().run()

#!/usr/bin/env python3
"""Fault: after each turn line waits for one more line (the judge sends none; `MORE=2` in its environment: two more lines) before answering, and at the end of input keeps reading empty lines in a loop, as a C++ `while (true) getline(...)` loop does."""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import Bot  # noqa: E402

MORE = int(os.environ.get("MORE", "1"))


class WaitsForMore(Bot):
    def play_turn(self, last, mine, theirs, fen):
        for _ in range(MORE):
            while not sys.stdin.readline():  # at the end of input: loop for ever, never exit
                time.sleep(0.01)
        super().play_turn(last, mine, theirs, fen)


if __name__ == "__main__":
    WaitsForMore().run()

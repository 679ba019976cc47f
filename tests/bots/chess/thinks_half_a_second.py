#!/usr/bin/env python3
"""Correct, but slow: half a second on every move (well inside the chess clock)."""
import time

from _common import Bot


class ThinksHalfASecond(Bot):
    def play_turn(self, last, mine, theirs, fen):
        time.sleep(0.5)
        super().play_turn(last, mine, theirs, fen)


if __name__ == "__main__":
    ThinksHalfASecond().run()

#!/usr/bin/env python3
"""Fault: from its 12th turn on it goes over all the positions of its game before answering, which takes it 300 ms (the limit is 150 ms); a fresh bot started in the same position plays the same move at once."""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import Bot  # noqa: E402


class SlowAfterTwelveTurns(Bot):
    def choose(self, turn):
        if self.turn >= 12:
            time.sleep(0.3)
        return super().choose(turn)


if __name__ == "__main__":
    SlowAfterTwelveTurns().run()

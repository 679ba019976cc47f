#!/usr/bin/env python3
"""Fault: reads the colour and the first turn line, then sleeps forever, never answering."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import Bot, sleep_forever  # noqa: E402


class Hangs(Bot):
    def play_turn(self, last, mine, theirs, fen):
        sleep_forever()


if __name__ == "__main__":
    Hangs().run()

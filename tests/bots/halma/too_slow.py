#!/usr/bin/env python3
"""Fault: on its 3rd turn sleeps 150 ms before answering (the referee waits 100 ms)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import time  # noqa: E402

from _common import Bot  # noqa: E402


class TooSlow(Bot):
    def play_turn(self):
        if self.turn == 3:
            time.sleep(0.150)
        super().play_turn()


if __name__ == "__main__":
    TooSlow().run()

#!/usr/bin/env python3
"""Fault: on its 3rd turn sleeps 70 ms before answering (over the statement's 50 ms, within the referee's 100 ms)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import time  # noqa: E402

from _common import Bot  # noqa: E402


class SlowWarn(Bot):
    def play_turn(self):
        if self.turn == 3:
            time.sleep(0.070)
        super().play_turn()


if __name__ == "__main__":
    SlowWarn().run()

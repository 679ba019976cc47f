#!/usr/bin/env python3
"""Fault: writes `gg` right after the echo of its winning move, when the game is already over.

GG_DELAY_MS in the environment waits that long before writing it (default 0).
"""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import Bot  # noqa: E402

DELAY_S = int(os.environ.get("GG_DELAY_MS", "0")) / 1000


class GgAfterWin(Bot):
    def on_echo(self, move, mine):
        outcome = self.position.outcome()
        if mine and outcome is not None and outcome.winner == self.seat:
            time.sleep(DELAY_S)
            self.send("gg")


if __name__ == "__main__":
    GgAfterWin().run()

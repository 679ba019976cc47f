#!/usr/bin/env python3
"""Fault: answers its first turn correctly, then sleeps forever on its second: a fuzzing
budget that ends while it waits must not pass it (the answer is judged to its limit)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import Bot, sleep_forever  # noqa: E402


class HangsSecondTurn(Bot):
    def play_turn(self, last, mine, theirs, fen):
        if self.turn >= 2:
            sleep_forever()
        super().play_turn(last, mine, theirs, fen)


if __name__ == "__main__":
    HangsSecondTurn().run()

#!/usr/bin/env python3
"""Fault: answers its first three turns correctly, then sleeps forever on its 4th (a bot
that stops answering mid-game; idle in a sleep, it uses no CPU while the clock runs)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import Bot, sleep_forever  # noqa: E402


class HangsFourthTurn(Bot):
    def play_turn(self, last, mine, theirs, fen):
        if self.turn >= 4:
            sleep_forever()
        super().play_turn(last, mine, theirs, fen)


if __name__ == "__main__":
    HangsFourthTurn().run()

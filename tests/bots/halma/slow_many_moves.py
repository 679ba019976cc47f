#!/usr/bin/env python3
"""Fault: orders its moves by a comparison that costs too much with many moves: with more than 340 legal moves it answers after 200 ms (the referee waits 100 ms)."""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import Bot  # noqa: E402

MANY = 340  # legal moves; most positions have 100 to 300
SLOW_S = 0.200


class SlowManyMoves(Bot):
    # Its move ordering is quadratic in the number of moves: fine in most positions,
    # over the limit in the most open ones (many long jump chains for many pieces).
    def choose(self, position):
        if len(position.legal_moves()) > MANY:
            time.sleep(SLOW_S)
        return super().choose(position)


if __name__ == "__main__":
    SlowManyMoves().run()

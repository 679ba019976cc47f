#!/usr/bin/env python3
"""Fault: on its first turn writes 8 MiB of `x` with no newline, then sleeps forever."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import Bot, sleep_forever  # noqa: E402


class Floods(Bot):
    def play_turn(self, last, mine, theirs, fen):
        chunk = "x" * 65536
        for _ in range(8 * 1024 * 1024 // len(chunk)):
            sys.stdout.write(chunk)
            sys.stdout.flush()
        sleep_forever()


if __name__ == "__main__":
    Floods().run()

#!/usr/bin/env python3
"""Fault: plays correctly but keeps running (sleeps forever) when stdin reaches EOF."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import Bot, sleep_forever  # noqa: E402


class NoExit(Bot):
    def on_eof(self):
        sleep_forever()


if __name__ == "__main__":
    NoExit().run()

#!/usr/bin/env python3
"""Fault: after each status line (`A ...`) writes `thinking...` before the next turn."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import Bot  # noqa: E402


class Talks(Bot):
    def on_status(self, line):
        sys.stdout.write("thinking...\n")
        sys.stdout.flush()


if __name__ == "__main__":
    Talks().run()

#!/usr/bin/env python3
"""Accepted with a warning: appends each turn's move to `loa.log` (in the folder it runs in)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import Bot  # noqa: E402


class WritesLog(Bot):
    def format(self, turn, move):
        with open("loa.log", "a") as log:
            log.write(f"{self.turn} {move}\n")
        return move


if __name__ == "__main__":
    WritesLog().run()

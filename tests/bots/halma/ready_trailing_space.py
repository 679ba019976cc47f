#!/usr/bin/env python3
"""Fault: greets with `ready ` (a trailing space); the controller compares the line exactly."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import Bot  # noqa: E402


class ReadyTrailingSpace(Bot):
    def handshake(self):
        self.send("ready ")


if __name__ == "__main__":
    ReadyTrailingSpace().run()

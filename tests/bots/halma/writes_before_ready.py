#!/usr/bin/env python3
"""Fault: writes `hello` at start-up, then `ready`: the first line must be `ready`."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import Bot  # noqa: E402


class WritesBeforeReady(Bot):
    def handshake(self):
        self.send("hello")
        self.send("ready")


if __name__ == "__main__":
    WritesBeforeReady().run()

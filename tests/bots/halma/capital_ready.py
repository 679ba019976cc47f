#!/usr/bin/env python3
"""Fault: greets with `Ready` (capital R) instead of exactly `ready`."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import Bot  # noqa: E402


class CapitalReady(Bot):
    def handshake(self):
        self.send("Ready")


if __name__ == "__main__":
    CapitalReady().run()

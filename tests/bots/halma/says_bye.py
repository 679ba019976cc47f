#!/usr/bin/env python3
"""Fault: plays correctly, then writes `bye` on stdout when stdin reaches EOF."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import Bot  # noqa: E402


class SaysBye(Bot):
    def on_eof(self):
        self.send("bye")
        sys.exit(0)


if __name__ == "__main__":
    SaysBye().run()

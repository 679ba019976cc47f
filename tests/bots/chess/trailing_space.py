#!/usr/bin/env python3
"""Fault: writes every answer with a trailing space (`e2e4 \\n`)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import Bot  # noqa: E402


class TrailingSpace(Bot):
    def send(self, text):
        sys.stdout.write(text + " \n")
        sys.stdout.flush()


if __name__ == "__main__":
    TrailingSpace().run()

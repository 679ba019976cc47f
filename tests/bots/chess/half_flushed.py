#!/usr/bin/env python3
"""Fault: flushes the first two characters of its answer and leaves the rest, newline
included, in the output buffer (the flush comes before the last write, not after it)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import Bot  # noqa: E402


class HalfFlushed(Bot):
    def send(self, text):
        sys.stdout.write(text[:2])
        sys.stdout.flush()
        sys.stdout.write(text[2:] + "\n")


if __name__ == "__main__":
    HalfFlushed().run()

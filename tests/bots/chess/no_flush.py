#!/usr/bin/env python3
"""Fault: answers with a plain print() and never flushes (stuck in the buffer on a pipe)."""
import io
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import Bot  # noqa: E402

# Buffer stdout the way Python does by default (block-buffered on a pipe, line-buffered
# on a terminal) even if PYTHONUNBUFFERED or -u is in effect, so the fault is certain.
sys.stdout = io.TextIOWrapper(io.BufferedWriter(io.FileIO(1, "w", closefd=False)),
                              line_buffering=os.isatty(1))


class NoFlush(Bot):
    def send(self, text):
        print(text)


if __name__ == "__main__":
    NoFlush().run()

#!/usr/bin/env python3
"""Fault: on its 2nd turn its comment holds U+2028 (LINE SEPARATOR): the referee's Scanner ends a line there, and its next read breaks.

SEPARATOR in the environment names another character by its hex code (85: U+0085, 2029: U+2029).
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import Bot  # noqa: E402

SEPARATOR = chr(int(os.environ.get("SEPARATOR", "2028"), 16))


class SeparatorInComment(Bot):
    def send(self, text):
        if self.turn == 2:
            text += " dbg" + SEPARATOR + "depth 3"
        sys.stdout.buffer.write(text.encode() + b"\n")
        sys.stdout.buffer.flush()


if __name__ == "__main__":
    SeparatorInComment().run()

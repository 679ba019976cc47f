#!/usr/bin/env python3
"""Fault: ends every answer with `\\r\\n` instead of `\\n` (a warning, not a failure)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import Bot  # noqa: E402


class Crlf(Bot):
    def send(self, text):
        sys.stdout.write(text + "\r\n")
        sys.stdout.flush()


if __name__ == "__main__":
    Crlf().run()

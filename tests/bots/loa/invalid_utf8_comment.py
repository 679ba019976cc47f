#!/usr/bin/env python3
"""Accepted with a warning: its comment holds bytes that are not UTF-8 (`b1b3 eval \xff\xfe`); the runner decodes them as U+FFFD and plays the move."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import Bot  # noqa: E402


class InvalidUtf8Comment(Bot):
    def send(self, text):
        sys.stdout.buffer.write(text.encode() + b" eval \xff\xfe\n")
        sys.stdout.buffer.flush()


if __name__ == "__main__":
    InvalidUtf8Comment().run()

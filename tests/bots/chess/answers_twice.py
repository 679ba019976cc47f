#!/usr/bin/env python3
"""Fault: writes every answer twice, in one write (`move\\nmove\\n`), flushed once."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import Bot  # noqa: E402


class AnswersTwice(Bot):
    def send(self, text):
        sys.stdout.write(f"{text}\n{text}\n")
        sys.stdout.flush()


if __name__ == "__main__":
    AnswersTwice().run()

#!/usr/bin/env python3
"""Fault: writes every input line back on stdout as it reads it (debug output on stdout, not stderr), before its answer."""
import os
import sys

# This folder holds random.py: keep it behind the standard library on the path.
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != HERE] + [HERE]
from _common import Bot  # noqa: E402


class EchoesInput(Bot):
    def line(self):
        text = super().line()
        self.send(text)
        return text


if __name__ == "__main__":
    EchoesInput().run()

#!/usr/bin/env python3
"""Fault: writes `hello` at start-up, before the colour line, then plays correctly."""
import os
import sys

sys.stdout.write("hello\n")  # first thing, before even importing chess
sys.stdout.flush()
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import Bot  # noqa: E402

if __name__ == "__main__":
    Bot().run()

#!/usr/bin/env python3
"""Fault: plays correctly, but on EOF raises an exception (traceback, exit status 1)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import Bot  # noqa: E402


class ExitNonzero(Bot):
    def on_eof(self):
        raise RuntimeError("exit_nonzero: deliberate failure at end of input")


if __name__ == "__main__":
    ExitNonzero().run()

#!/usr/bin/env python3
"""Fault: when its own move is echoed to it, writes that `move ...` line again."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import Bot  # noqa: E402


class AnswersAgain(Bot):
    def on_echo(self, move, mine):
        if mine:
            self.send("move " + move)


if __name__ == "__main__":
    AnswersAgain().run()

#!/usr/bin/env python3
"""Fault: reads one legal move more than the count says (`i <= count`), as a C++ `getline` loop does: it waits for a line the judge never sends; at the end of input that read gives an empty line and the bot answers then (flushed), so its answer comes only when its input is closed."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import Bot  # noqa: E402


class ReadsOneTooMany(Bot):
    def read_turn(self):
        turn = super().read_turn()
        sys.stdin.readline()  # the move after the last: "" at the end of input, as getline gives
        return turn


if __name__ == "__main__":
    ReadsOneTooMany().run()

#!/usr/bin/env python3
"""Fault: writes a crowning move without its crown coordinate (the first 4 of 6 characters)."""
import os
import sys

# This folder holds random.py: keep it behind the standard library on the path.
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != HERE] + [HERE]
from _common import Bot  # noqa: E402


class DropsCrown(Bot):
    # The shared play already prefers crowning moves (6 characters), so the fault shows
    # as soon as a single can reach the furthest row.
    def format(self, turn, move):
        return move[:4] if len(move) == 6 else move


if __name__ == "__main__":
    DropsCrown().run()

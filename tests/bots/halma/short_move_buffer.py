#!/usr/bin/env python3
"""Fault: keeps each echoed move in a buffer of four points, so a jump chain of four or more hops crashes it."""
from _common import Bot

POINTS = 4  # the planted bug: a chain of k hops names k + 1 points


class ShortMoveBuffer(Bot):
    def on_echo(self, move, mine):
        numbers = [int(n) for n in move.split()]
        buffer = [None] * POINTS
        for i in range(0, len(numbers), 2):
            buffer[i // 2] = (numbers[i], numbers[i + 1])  # IndexError past 4 points


if __name__ == "__main__":
    ShortMoveBuffer().run()

#!/usr/bin/env python3
"""Fault: crashes (an IndexError) on a turn where it has four or fewer checkers left."""
from _common import Bot


class CrashFewCheckers(Bot):
    # A table sized for the opening: the endgame indexes past its end.
    def choose(self, turn):
        mine = turn.own_squares()
        if len(mine) <= 4:
            mine[len(mine) + 4]  # the planted bug: IndexError
        return super().choose(turn)


if __name__ == "__main__":
    CrashFewCheckers().run()

#!/usr/bin/env python3
"""Deep fault (history): it counts the opponent's long jump chains (9 hops or more); after the 3rd of a game it switches to a race mode for the rest of the game, which keeps its own move's path in a buffer of 11 hops: a move of its own of 12 hops or more after that crashes it (IndexError). Only the game's moves build the count up: a fresh bot has seen none."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import Bot, points  # noqa: E402

#: Hops of an opponent's jump chain that the bot counts as a long one.
LONG = 9
#: Long jumps of the opponent after which the bot races.
SEEN = 3
#: Hops the race mode's path buffer holds.
HOPS = 11


class LongJumps(Bot):
    def __init__(self):
        super().__init__()
        self.long_jumps = 0  # the opponent's jump chains of LONG hops or more
        self.mode = None  # "race" once SEEN long jumps were seen
        self.path = []

    def choose(self, position):
        move = super().choose(position)
        if self.mode == "race":
            self.path = [None] * HOPS
            for i, point in enumerate(points(move)[1:]):
                self.path[i] = point  # IndexError past HOPS hops
        return move

    def on_echo(self, move, mine):
        if not mine and len(points(move)) - 1 >= LONG:
            self.long_jumps += 1
            if self.mode is None and self.long_jumps >= SEEN:  # the rare branch
                self.mode = "race"


if __name__ == "__main__":
    LongJumps().run()

#!/usr/bin/env python3
"""Not a fault: among the equally good moves of the shared play it picks one with real randomness (`random.SystemRandom`), so the same input can get different answers."""
import os
import sys

# This folder holds random.py: keep it behind the standard library on the path.
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != HERE] + [HERE]
import random  # noqa: E402  (the standard library's, thanks to the line above)

from _common import Bot, rank_gain  # noqa: E402

CHANCE = random.SystemRandom()


class RandomAmongEquals(Bot):
    # The shared play (a crown first, else the longest forward advance), with its ties
    # broken by the operating system's randomness instead of a generator seeded with the
    # board: as a search that stops on the clock, or a hash map with a random seed, does.
    def choose(self, turn):
        crowns = [m for m in turn.moves if len(m) == 6]
        if crowns:
            return CHANCE.choice(crowns)
        best = max(rank_gain(turn, m) for m in turn.moves)
        return CHANCE.choice([m for m in turn.moves if rank_gain(turn, m) == best])


if __name__ == "__main__":
    RandomAmongEquals().run()

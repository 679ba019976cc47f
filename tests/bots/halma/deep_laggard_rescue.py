#!/usr/bin/env python3
"""Deep fault: when a piece of its own is still in its starting camp on its 50th turn it switches to rescuing it for the rest of the game, keeping the rescue's path in a buffer of 5 hops: a rescue jump of 6 hops or more crashes it (IndexError)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import CAMP, FAR_CORNER, Bot, home, king_distance, points  # noqa: E402

#: The turn from which a piece left in its starting camp is a laggard worth a rescue.
LATE = 50
#: Hops the rescue's path buffer holds (the author's rescues never jumped further).
HOPS = 5


class LaggardRescue(Bot):
    def __init__(self):
        super().__init__()
        self.mode = None  # "rescue" once a laggard was seen on turn LATE or later
        self.laggard = None  # the cell of the piece being rescued, None once it is home
        self.path = []

    def choose(self, position):
        if self.mode is None and self.turn >= LATE:
            left = sorted(p for p in self.mine() if p in CAMP[self.seat])
            if left:  # the rare branch: a piece never left the camp
                self.mode, self.laggard = "rescue", left[0]
        if self.laggard is not None:
            return self.rescue(position)
        return super().choose(position)

    def rescue(self, position):
        """The laggard's move that brings it nearest the far corner (a jump as long as
        any); the greedy move when the laggard cannot move."""
        corner = FAR_CORNER[self.seat]
        moves = [m for m in position.legal_moves() if points(m)[0] == self.laggard]
        if not moves:
            return super().choose(position)
        best = min(moves, key=lambda m: (king_distance(points(m)[-1], corner), -len(m), m))
        self.path = [None] * HOPS
        for i, point in enumerate(points(best)[1:]):
            self.path[i] = point  # IndexError past HOPS hops
        return best

    def on_echo(self, move, mine):
        if mine and self.laggard is not None and points(move)[0] == self.laggard:
            end = points(move)[-1]
            self.laggard = None if end in home(self.seat) else end


if __name__ == "__main__":
    LaggardRescue().run()

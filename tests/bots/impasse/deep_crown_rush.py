#!/usr/bin/env python3
"""Deep fault: with 5 singles on the board it switches to a crown rush for the rest of the game, whose impasse handling ranks at most 4 removals: an impasse with more listed crashes it (IndexError)."""
import os
import sys

# This folder holds random.py: keep it behind the standard library on the path.
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != HERE] + [HERE]
from _common import FORWARD, Bot, progress_choice  # noqa: E402

#: Singles on the board that switch the bot to its crown rush (it usually has 4 at most).
SINGLES = 5
#: Removals the rush's impasse ranking has room for.
RANKED = 4


class CrownRush(Bot):
    def __init__(self):
        super().__init__()
        self.mode = None  # "rush" once SINGLES singles stood on the board
        self.rush_turn = 0

    def choose(self, turn):
        singles = "".join(turn.rows).count(self.colour)
        if self.mode is None and singles >= SINGLES:  # the rare branch
            self.mode, self.rush_turn = "rush", self.turn
        if self.mode == "rush":
            return self.rush(turn)
        return progress_choice(turn)

    def rush(self, turn):
        """Crowns first; else the slide that brings a single nearest its furthest row;
        at an impasse, the removal of the checker furthest back."""
        crowns = [m for m in turn.moves if len(m) == 6]
        if crowns:
            return crowns[0]
        if all(len(m) == 2 for m in turn.moves):  # an impasse: only removals listed
            rank = [None] * RANKED
            for i, move in enumerate(sorted(turn.moves, key=lambda m: int(m[1]) * FORWARD[self.colour])):
                rank[i] = move  # IndexError past RANKED removals
            return rank[0]
        singles = [m for m in turn.moves if len(m) == 4 and turn.at(m[:2]) == self.colour]
        if singles:
            furthest = 8 if self.colour == "w" else 1
            return min(singles, key=lambda m: (abs(furthest - int(m[3])), m))
        return progress_choice(turn)


if __name__ == "__main__":
    CrownRush().run()

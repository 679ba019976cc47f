#!/usr/bin/env python3
"""Deep fault (history): from its 2nd impasse of a game on it watches the opponent's moves; when the opponent then has to remove a checker at an impasse of its own (both sides stuck) it switches to an endgame mode for the rest of the game, whose removal ranking has room for 1: an impasse of its own after that with 2 removals or more listed crashes it (IndexError). Only its own turns build this up: a fresh bot, in any position, has seen no impasse."""
import os
import sys

# This folder holds random.py: keep it behind the standard library on the path.
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != HERE] + [HERE]
from _common import FORWARD, Bot, progress_choice  # noqa: E402

#: The bot's own impasses after which it watches for the opponent's (it seldom has two).
WATCH_FROM = 2
#: Removals the endgame mode's ranking has room for.
ROOM = 1


class BothStuck(Bot):
    def __init__(self):
        super().__init__()
        self.impasses = 0  # the bot's own impasses so far
        self.watching = False  # True from its WATCH_FROM-th impasse on
        self.mode = None  # "endgame" once the opponent was seen stuck too

    def choose(self, turn):
        at_impasse = all(len(m) == 2 for m in turn.moves)  # only removals listed
        if self.watching and self.mode is None and len(turn.last_move) == 2:
            self.mode = "endgame"  # the rare branch: the opponent removed at an impasse
        if at_impasse:
            self.impasses += 1
            if self.impasses >= WATCH_FROM:
                self.watching = True
            if self.mode == "endgame":
                return self.endgame_removal(turn)
        return progress_choice(turn)

    def endgame_removal(self, turn):
        """The removal of the checker furthest forward: those further back still have room."""
        rank = [None] * ROOM
        for i, move in enumerate(sorted(turn.moves, key=lambda m: -int(m[1]) * FORWARD[self.colour])):
            rank[i] = move  # IndexError past ROOM removals
        return rank[0]


if __name__ == "__main__":
    BothStuck().run()

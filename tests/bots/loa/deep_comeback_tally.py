#!/usr/bin/env python3
"""Deep fault: once 4 checkers behind it switches to a comeback routine for the rest of the game, whose tally of captures has a slot per checker it was behind: capturing 2 more than that crashes it (IndexError)."""
from _common import FILES, Bot, listed_choice

#: Checkers behind that switch the bot to its comeback routine (for the rest of the game).
BEHIND = 4
#: Spare slots of the routine's tally beyond the deficit at the switch (the author thought
#: a comeback never overshoots by more).
SPARE = 2


class ComebackTally(Bot):
    def __init__(self):
        super().__init__()
        self.mode = None  # "comeback" once BEHIND checkers down
        self.tally = []  # comeback routine: turn of each capture since the switch
        self.taken = 0

    def choose(self, turn):
        text = "".join(turn.rows)
        mine, theirs = text.count(turn.colour), len(text) - text.count(".") - text.count(turn.colour)
        if self.mode is None and theirs - mine >= BEHIND:  # the rare branch: far behind
            self.mode = "comeback"
            self.tally = [0] * (theirs - mine + SPARE)
        if self.mode == "comeback":
            return self.comeback(turn)
        return listed_choice(turn)

    def comeback(self, turn):
        """Captures first, the one landing nearest its own checkers' centre; else the move
        that lands nearest that centre (it pulls its group together)."""
        own = turn.own_squares()
        cx, cy = sum(f for f, _ in own) / len(own), sum(r for _, r in own) / len(own)

        def target(move):
            return FILES.index(move[2]), int(move[3]) - 1

        def spread(move):
            f, r = target(move)
            return (f - cx) ** 2 + (r - cy) ** 2, move

        moves = [m for m in turn.moves if m != "pass"]
        if not moves:
            return "pass"
        captures = [m for m in moves if turn.at(*target(m)) not in (".", turn.colour)]
        move = min(captures or moves, key=spread)
        if captures:
            self.tally[self.taken] = self.turn  # IndexError past the slots
            self.taken += 1
        return move


if __name__ == "__main__":
    ComebackTally().run()

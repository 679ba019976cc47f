#!/usr/bin/env python3
"""Deep fault: when the enemy has kept 2 checkers or fewer for 8 of its turns in a row it switches to a mop-up routine for the rest of the game, with a move generator of its own that looks for an enemy checker on the first 2 squares of a path only: a longer move across one is illegal."""
from _common import FILES, Bot, listed_choice, own_moves

#: Turns in a row with the enemy down to 2 checkers or fewer that switch the bot to mop-up.
STUCK = 8
#: Squares of a path the mop-up's generator looks at for an enemy checker in the way.
LOOK = 2


class MopUp(Bot):
    def __init__(self):
        super().__init__()
        self.mode = None  # "mop-up" once the enemy stayed down for STUCK turns
        self.stuck = 0

    def choose(self, turn):
        enemy = [(f, r) for r in range(8) for f in range(8) if turn.at(f, r) not in (".", turn.colour)]
        self.stuck = self.stuck + 1 if len(enemy) <= 2 else 0
        if self.mode is None and self.stuck >= STUCK:  # the rare branch: it cannot finish
            self.mode = "mop-up"
        if self.mode == "mop-up" and turn.moves != ["pass"]:
            return self.mop_up(turn, enemy)
        return listed_choice(turn)

    def mop_up(self, turn, enemy):
        """Its own moves (no need to read the list): a capture, else the move landing
        nearest the enemy's checkers, to smother them."""
        moves = [m for m, _ in own_moves(turn, enemy_look=LOOK)]
        if not moves:
            return "pass"
        ex, ey = sum(f for f, _ in enemy) / len(enemy), sum(r for _, r in enemy) / len(enemy)

        def key(move):
            f, r = FILES.index(move[2]), int(move[3]) - 1
            return turn.at(f, r) == ".", (f - ex) ** 2 + (r - ey) ** 2, move

        return min(moves, key=key)


if __name__ == "__main__":
    MopUp().run()

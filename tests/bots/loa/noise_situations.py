#!/usr/bin/env python3
"""Noise fault: picks its move by one of 36 situation classes (its checkers, captures listed); the rare class of 8 or 9 checkers with 5 captures or more crashes it (KeyError)."""
from _common import FILES, Bot

#: Bands of the bot's own checkers: 12, 10-11, 8-9, 6-7, 4-5, 3 or fewer.
BANDS = (12, 10, 8, 6, 4, 0)


def band(count):
    return next(i for i, low in enumerate(BANDS) if count >= low)


def square(move):
    return FILES.index(move[2]), int(move[3]) - 1


class Situations(Bot):
    """The move is a listed one, chosen by a policy per situation: (band of its checkers,
    captures listed, 5 meaning 5 or more). Each policy is harmless: a listed move."""

    def choose(self, turn):
        if turn.moves == ["pass"]:
            return "pass"
        captures = [m for m in turn.moves if turn.at(*square(m)) not in (".", turn.colour)]
        key = (band(len(turn.own_squares())), min(len(captures), 5))
        pool = captures or turn.moves
        rng = turn.rng()
        b, c = key
        if b == 0:
            if c == 0:
                return rng.choice(pool)
            elif c == 1:
                return pool[0]
            elif c == 2:
                return pool[-1]
            elif c == 3:
                return sorted(pool, key=lambda m: m[2:])[0]
            elif c == 4:
                return sorted(pool, key=lambda m: m[::-1])[0]
            return max(pool, key=lambda m: (square(m)[1], m))
        if b == 1:
            if c == 0:
                return min(pool, key=lambda m: (abs(square(m)[0] - 3.5), m))
            elif c == 1:
                return pool[0]
            elif c == 2:
                return rng.choice(pool)
            elif c == 3:
                return min(pool, key=lambda m: (square(m)[1], m))
            elif c == 4:
                return pool[len(pool) // 2]
            return max(pool, key=lambda m: (square(m)[0], m))
        if b == 2:
            if c == 0:
                return min(pool, key=lambda m: (abs(square(m)[1] - 3.5), m))
            elif c == 1:
                return pool[-1]
            elif c == 2:
                return rng.choice(pool)
            elif c == 3:
                return sorted(pool)[1]
            elif c == 4:
                return min(pool, key=lambda m: (abs(square(m)[0] - 3.5) + abs(square(m)[1] - 3.5), m))
            # 8 or 9 checkers and 5 captures: ranks the captures by the enemy's lines,
            # a table the author filled for at most 4 (KeyError)
            return {1: pool[0], 2: pool[1], 3: pool[2], 4: pool[3]}[len(pool)]
        if b == 3:
            if c == 0:
                return rng.choice(pool)
            elif c == 1:
                return pool[0]
            elif c == 2:
                return max(pool)
            elif c == 3:
                return min(pool, key=lambda m: (square(m)[0] + square(m)[1], m))
            elif c == 4:
                return max(pool, key=lambda m: (square(m)[0] - square(m)[1], m))
            return rng.choice(pool)
        if b == 4:
            if c == 0:
                return min(pool, key=lambda m: (abs(square(m)[0] - 3.5) + abs(square(m)[1] - 3.5), m))
            elif c == 1:
                return pool[0]
            elif c == 2:
                return pool[1]
            elif c == 3:
                return rng.choice(pool)
            elif c == 4:
                return sorted(pool, key=lambda m: m[2:])[-1]
            return pool[-1]
        if c == 0:
            return rng.choice(pool)
        elif c == 1:
            return pool[0]
        elif c == 2:
            return min(pool, key=lambda m: (square(m)[1], m))
        elif c == 3:
            return max(pool, key=lambda m: (square(m)[1], m))
        elif c == 4:
            return sorted(pool)[2]
        return rng.choice(pool)


if __name__ == "__main__":
    Situations().run()

#!/usr/bin/env python3
"""Noise fault: picks its move by one of 28 situation classes (the longest move listed, in squares; captures listed); the rare class of a 7-square move beside 2 captures or more is an illegal move (it plays the long move reversed)."""
from _common import FILES, Bot


def square(move):
    return FILES.index(move[2]), int(move[3]) - 1


def length(move):
    return max(abs(ord(move[0]) - ord(move[2])), abs(int(move[1]) - int(move[3])))


class LongLines(Bot):
    """The move is a listed one, chosen by a policy per situation: (the longest listed
    move, 1 to 7 squares; captures listed, 3 meaning 3 or more). Each policy is harmless."""

    def choose(self, turn):
        if turn.moves == ["pass"]:
            return "pass"
        moves = turn.moves
        captures = [m for m in moves if turn.at(*square(m)) not in (".", turn.colour)]
        longest = max(moves, key=lambda m: (length(m), m))
        n, c = length(longest), min(len(captures), 3)
        pool, rng = captures or moves, turn.rng()
        if n <= 2:
            if c == 0:
                return rng.choice(pool)
            elif c == 1:
                return pool[0]
            return pool[-1]
        if n == 3:
            if c == 0:
                return min(pool, key=lambda m: (abs(square(m)[0] - 3.5), m))
            elif c == 1:
                return pool[0]
            elif c == 2:
                return rng.choice(pool)
            return max(pool, key=lambda m: (square(m)[1], m))
        if n == 4:
            if c == 0:
                return max(pool, key=lambda m: (length(m), m))
            elif c == 1:
                return pool[0]
            elif c == 2:
                return min(pool, key=lambda m: (length(m), m))
            return rng.choice(pool)
        if n == 5:
            if c == 0:
                return min(pool, key=lambda m: (abs(square(m)[1] - 3.5), m))
            elif c == 1:
                return pool[-1]
            elif c == 2:
                return sorted(pool, key=lambda m: m[2:])[0]
            return max(pool, key=lambda m: (square(m)[0], m))
        if n == 6:
            if c == 0:
                return longest
            elif c == 1:
                return pool[0]
            elif c == 2:
                return rng.choice(pool)
            return min(pool, key=lambda m: (square(m)[0] + square(m)[1], m))
        if c == 0:
            return longest
        elif c == 1:
            return rng.choice(pool)
        # a move across the whole board beside 2 captures or more: plays the long move,
        # written from its far end (the author's board was the other way up)
        return longest[2:] + longest[:2]


if __name__ == "__main__":
    LongLines().run()

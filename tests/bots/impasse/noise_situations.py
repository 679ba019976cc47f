#!/usr/bin/env python3
"""Noise fault: picks its move by one of 24 situation classes (its singles, its doubles); the rare class of 5 singles or more and no double crashes it (ZeroDivisionError)."""
import os
import sys

# This folder holds random.py: keep it behind the standard library on the path.
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != HERE] + [HERE]
from _common import Bot, progress_choice, rank_gain  # noqa: E402


def dbucket(doubles):
    return 0 if doubles == 0 else 1 if doubles <= 2 else 2 if doubles <= 4 else 3


class Situations(Bot):
    """The move is a listed one, chosen by a policy per situation: (its singles, 5
    meaning 5 or more; its doubles: none, 1-2, 3-4, 5-6). Each policy is harmless."""

    def choose(self, turn):
        text = "".join(turn.rows)
        s, d = min(text.count(self.colour), 5), dbucket(text.count(self.colour.upper()))
        moves, rng = turn.moves, turn.rng()
        crowns = [m for m in moves if len(m) == 6]
        if s == 0:
            if d == 0:
                return moves[0]
            elif d == 1:
                return progress_choice(turn)
            elif d == 2:
                return max(moves, key=lambda m: (rank_gain(turn, m), m))
            return rng.choice(moves)
        if s == 1:
            if d == 0:
                return moves[-1]
            elif d == 1:
                return min(moves, key=lambda m: (rank_gain(turn, m), m))
            elif d == 2:
                return progress_choice(turn)
            return sorted(moves, key=len)[-1]
        if s == 2:
            if d == 0:
                return rng.choice(moves)
            elif d == 1:
                return progress_choice(turn)
            elif d == 2:
                return moves[len(moves) // 2]
            return max(moves, key=lambda m: (len(m), m))
        if s == 3:
            if d == 0:
                return progress_choice(turn)
            elif d == 1:
                return (crowns or moves)[0]
            elif d == 2:
                return rng.choice(crowns or moves)
            return moves[0]
        if s == 4:
            if d == 0:
                return (crowns or moves)[-1]
            elif d == 1:
                return progress_choice(turn)
            elif d == 2:
                return max(moves, key=lambda m: (rank_gain(turn, m), m[::-1]))
            return rng.choice(moves)
        if d == 0:
            # 5 singles or more and no double: shares its moves out among its doubles,
            # of which the author thought it always had one (ZeroDivisionError)
            doubles = text.count(self.colour.upper())
            return moves[len(moves) // doubles - 1]
        elif d == 1:
            return (crowns or moves)[0]
        elif d == 2:
            return rng.choice(crowns or moves)
        return progress_choice(turn)


if __name__ == "__main__":
    Situations().run()

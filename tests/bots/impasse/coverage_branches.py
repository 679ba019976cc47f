#!/usr/bin/env python3
"""Correct: plays as the other correct Impasse bots do, through code of its own that a run
reaches in stages (for the coverage tests): `few_moves` only when it has three moves or
fewer, `crowned_and_few` only when, besides, it has crowned a checker before; and
`never_called`, which nothing calls: a coverage report names it as never reached."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != HERE] + [HERE]
from _common import Bot, progress_choice  # noqa: E402


class Branches(Bot):
    crowned = False

    def choose(self, turn):
        move = progress_choice(turn)
        if len(turn.moves) <= 3:
            move = self.few_moves(turn, move)
        if len(move) == 6:
            self.crowned = True
        return move

    def few_moves(self, turn, move):
        if self.crowned:
            return self.crowned_and_few(turn, move)
        return move

    def crowned_and_few(self, turn, move):
        return move


def never_called():
    return "never"


if __name__ == "__main__":
    Branches().run()

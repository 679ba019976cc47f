#!/usr/bin/env python3
"""Fault: reads the turn line with a pattern that allows a halfmove clock of two digits at most, and crashes on 100 or more."""
import re

import chess

from _common import Bot

# The author expected the fifty-move rule to end the game before the clock reaches 100;
# the judge plays on (only the 75-move rule ends a game), so a 3-digit clock arrives.
TURN = re.compile(r"(\S+) (\d+) (\d+) (\S+ [wb] \S+ \S+ (\d{1,2}) (\d+))$")


class HalfmoveClockDigits(Bot):
    def play_turn(self, last, mine, theirs, fen):
        line = f"{last} {mine} {theirs} {fen}"
        fields = TURN.match(line)
        board = chess.Board(fields.group(4))  # AttributeError when the pattern fails
        move = self.choose(board)
        if move is not None:
            self.send(self.format(board, move))


if __name__ == "__main__":
    HalfmoveClockDigits().run()

#!/usr/bin/env python3
"""Fault: with a single legal move its search never stops deepening and thinks until its clock runs out."""
import time

import chess

from _common import Bot, candidates


class ThinksOnForcedMove(Bot):
    # Iterative deepening stops when the best move is clearly ahead of the second best;
    # with only one move there is no second best, so it uses all the time it has left.
    def play_turn(self, last, mine, theirs, fen):
        board = chess.Board(fen)
        if len(candidates(board)) == 1:
            time.sleep(mine / 100 + 0.5)  # <time> counts 10 ms units
        super().play_turn(last, mine, theirs, fen)


if __name__ == "__main__":
    ThinksOnForcedMove().run()

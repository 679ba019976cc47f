#!/usr/bin/env python3
"""Correct: imports modules and reads its opening book (`opening_book.txt`, beside it) on every turn; writes no file."""
import csv  # noqa: F401  (imports read files: they must not count)
import json  # noqa: F401
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import chess  # noqa: E402
from _common import Bot  # noqa: E402

BOOK = os.path.join(os.path.dirname(os.path.abspath(__file__)), "opening_book.txt")


class ReadsOpeningBook(Bot):
    def choose(self, board):
        with open(BOOK) as book:  # read again each turn, as a bot that caches nothing would
            for line in book:
                fen, _, move = line.strip().rpartition(" ")
                if fen == board.board_fen():
                    candidate = chess.Move.from_uci(move)
                    if candidate in board.legal_moves:
                        return candidate
        return super().choose(board)


if __name__ == "__main__":
    ReadsOpeningBook().run()

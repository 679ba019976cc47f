#!/usr/bin/env python3
"""Fault: from move 30 of the game on (the FEN's fullmove number), each answer aborts (SIGABRT) one time in three, at random, as GNU Chess 6 (behind a judge-protocol adapter) dies in long games only sometimes."""
import os
import random
import sys

from _common import Bot


class CrashesSometimesLate(Bot):
    def play_turn(self, last, mine, theirs, fen):
        if int(fen.split()[5]) >= 30 and random.Random(os.urandom(8)).random() < 1 / 3:
            sys.stderr.write("Assertion 'nread < BUF_SIZE-1' failed\n")
            sys.stderr.flush()
            os.abort()
        super().play_turn(last, mine, theirs, fen)


if __name__ == "__main__":
    CrashesSometimesLate().run()

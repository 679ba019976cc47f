#!/usr/bin/env python3
"""Fault: aborts (SIGABRT) when the halfmove clock of the position it is shown reaches 99, as GNU Chess 6 (behind a judge-protocol adapter) was seen to."""
import os
import sys

from _common import Bot


class CrashHalfmove99(Bot):
    def play_turn(self, last, mine, theirs, fen):
        if int(fen.split()[4]) >= 99:
            # GNU Chess's own fifty-move bookkeeping overflows here; the judge plays on
            # to its 75-move rule (a halfmove clock of 150), so real games reach it.
            sys.stderr.write("assertion failed: halfmove clock < 99\n")
            sys.stderr.flush()
            os.abort()
        super().play_turn(last, mine, theirs, fen)


if __name__ == "__main__":
    CrashHalfmove99().run()

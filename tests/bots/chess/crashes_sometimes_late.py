#!/usr/bin/env python3
"""Fault: one run in three aborts (SIGABRT) at its first answer from move 30 of the game on (the FEN's fullmove number), as GNU Chess 6 (behind a judge-protocol adapter) dies in long games only sometimes. Which runs: a counter file in $COUNTER_DIR, the first run and every third after it, so that any three runs in a row have one that crashes (a test's observed rate is never 0 by chance); without $COUNTER_DIR, each run one time in three at random."""
import os
import random
import sys

from _common import Bot


def crash_run() -> bool:
    folder = os.environ.get("COUNTER_DIR")
    if not folder:
        return random.Random(os.urandom(8)).random() < 1 / 3
    import fcntl

    with open(os.path.join(folder, "runs"), "a+") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        fh.seek(0)
        runs = int(fh.read() or 0)
        fh.seek(0)
        fh.truncate()
        fh.write(str(runs + 1))
    return runs % 3 == 0


class CrashesSometimesLate(Bot):
    def start(self):
        self.crash = crash_run()

    def play_turn(self, last, mine, theirs, fen):
        if self.crash and int(fen.split()[5]) >= 30:
            sys.stderr.write("Assertion 'nread < BUF_SIZE-1' failed\n")
            sys.stderr.flush()
            os.abort()
        super().play_turn(last, mine, theirs, fen)


if __name__ == "__main__":
    CrashesSometimesLate().run()

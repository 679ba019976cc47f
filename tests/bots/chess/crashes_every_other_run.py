#!/usr/bin/env python3
"""Fault: crashes on its first turn in every other run (a counter file in $COUNTER_DIR): the same input fails, then passes."""
import os
import sys

from _common import Bot


class EveryOtherRun(Bot):
    def start(self):
        path = os.path.join(os.environ["COUNTER_DIR"], "runs")
        try:
            with open(path) as fh:
                runs = int(fh.read() or 0)
        except FileNotFoundError:
            runs = 0
        with open(path, "w") as fh:
            fh.write(str(runs + 1))
        self.crash = runs % 2 == 0

    def play_turn(self, last, mine, theirs, fen):
        if self.crash:
            sys.exit("crashing, as every other run does")
        super().play_turn(last, mine, theirs, fen)


if __name__ == "__main__":
    EveryOtherRun().run()

#!/usr/bin/env python3
"""Correct without coverage: plays as the other correct Impasse bots do, but on its second
turn spends 500 ms of CPU (over the 100 ms limit) when prototest's coverage map is named in
its environment (PROTOTEST_COVERAGE_MAP): a stand-in for a bot that the collector's cost makes
late (a cost in CPU, as the collector's is: a bot asleep when its time runs out is late by its
own doing, and its timeout is the bot's without a re-check). The timing failure seen with
coverage must not count: played again without the collector, it does not come back."""
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != HERE] + [HERE]
from _common import Bot  # noqa: E402


class SlowUnderCoverage(Bot):
    def choose(self, turn):
        if self.turn == 2 and os.environ.get("PROTOTEST_COVERAGE_MAP"):
            end = time.process_time() + 0.5  # CPU time: its own, however busy the machine
            while time.process_time() < end:
                pass
        return super().choose(turn)


if __name__ == "__main__":
    SlowUnderCoverage().run()

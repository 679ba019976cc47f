#!/usr/bin/env python3
"""Fault: spends 45 ms of CPU time on every move (a busy loop): on a free core it answers in time, under Proglad's 0.3 CPU it cannot."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import time  # noqa: E402

from _common import Bot  # noqa: E402

CPU_SECONDS = 0.045


class Cpu45ms(Bot):
    def play_turn(self):
        # CPU time, not wall time: time.thread_time() counts only while this thread runs
        until = time.thread_time() + CPU_SECONDS
        move = self.format(self.choose(self.position))
        while time.thread_time() < until:
            pass
        self.send(move)


if __name__ == "__main__":
    Cpu45ms().run()

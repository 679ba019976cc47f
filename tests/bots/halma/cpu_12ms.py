#!/usr/bin/env python3
"""Not a fault: spends 12 ms of CPU time on every move (a busy loop), within Proglad's 0.3 CPU and 100 ms."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import time  # noqa: E402

from _common import Bot  # noqa: E402

CPU_SECONDS = 0.012


class Cpu12ms(Bot):
    def play_turn(self):
        # CPU time, not wall time: time.thread_time() counts only while this thread runs
        until = time.thread_time() + CPU_SECONDS
        move = self.format(self.choose(self.position))
        while time.thread_time() < until:
            pass
        self.send(move)


if __name__ == "__main__":
    Cpu12ms().run()

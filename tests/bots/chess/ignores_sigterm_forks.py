#!/usr/bin/env python3
"""Fault: ignores SIGTERM, forks a SIGTERM-ignoring child that holds stdout, never exits."""
import signal
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import Bot, sleep_forever  # noqa: E402


class Stubborn(Bot):
    def start(self):
        signal.signal(signal.SIGTERM, signal.SIG_IGN)  # inherited by the child
        if os.fork() == 0:  # child: keep the inherited stdout/stderr open forever
            os.write(2, b"pid %d\n" % os.getpid())
            sleep_forever()
        os.write(2, b"pid %d\n" % os.getpid())

    def on_eof(self):
        sleep_forever()


if __name__ == "__main__":
    Stubborn().run()

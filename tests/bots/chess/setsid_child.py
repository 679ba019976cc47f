#!/usr/bin/env python3
"""Fault: starts a child that leaves the bot's process group (setsid) and sleeps for ever;
the bot itself plays correctly and exits at end of input, leaving the child behind."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import Bot, sleep_forever  # noqa: E402


class SetsidChild(Bot):
    def start(self):
        if os.fork() == 0:
            os.setsid()
            # The child keeps no pipe of the bot's: only the group kill could miss it.
            devnull = os.open(os.devnull, os.O_RDWR)
            for fd in (0, 1):
                os.dup2(devnull, fd)
            sys.stderr.write(f"child pid {os.getpid()}\n")
            sys.stderr.flush()
            os.dup2(devnull, 2)
            sleep_forever()


if __name__ == "__main__":
    SetsidChild().run()

#!/usr/bin/env python3
"""Fault: never exits at end of input, and on SIGTERM spawns a grandchild outside its
process group (fork, setsid, fork) instead of dying. The grandchild's pid is appended to
the file named by $PIDFILE, so a test can check that it did not survive."""
import os
import signal
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import Bot, sleep_forever  # noqa: E402


def spawn_escapee(signum, frame):
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            with open(os.environ.get("PIDFILE", os.devnull), "a") as fh:
                fh.write(f"{os.getpid()}\n")
            sleep_forever()
        os._exit(0)


class ForksOnSigterm(Bot):
    def start(self):
        signal.signal(signal.SIGTERM, spawn_escapee)

    def on_eof(self):
        sleep_forever()


if __name__ == "__main__":
    ForksOnSigterm().run()

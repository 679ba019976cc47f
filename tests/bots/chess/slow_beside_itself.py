#!/usr/bin/env python3
"""Fault only under contention: a correct bot, except that when another copy of itself
is running at the same time it takes 1.5 s over its first answer (a bot that needs a
whole core and has to share it). Played alone it answers at once.

The copies find each other through an abstract Unix socket named by $LOCK (no file is
made): the first to start holds the name until it exits; a copy that cannot take the
name knows it is not alone. With the chess judge at --time-scale 0.1 (a 1 s clock), the
slow copy runs out of time.
"""
import os
import socket
import sys
import time

alone = True
_holder = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
try:
    _holder.bind("\0" + os.environ.get("LOCK", "prototest-slow-beside-itself"))
except OSError:
    alone = False

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import Bot  # noqa: E402


class SlowBesideItself(Bot):
    def play_turn(self, last, mine, theirs, fen):
        if not alone and self.turn == 1:
            time.sleep(1.5)
        super().play_turn(last, mine, theirs, fen)


if __name__ == "__main__":
    SlowBesideItself().run()

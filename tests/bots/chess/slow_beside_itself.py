#!/usr/bin/env python3
"""Fault only under contention: a correct bot, except that when another copy of itself
is running at the same time it takes 1.5 s over its first answer (a bot that needs a
whole core and has to share it). Played alone it answers at once.

The copies find each other through an abstract Unix socket named by $LOCK (no file is
made): the first to start holds the name until it exits; a copy that cannot take the
name knows it is not alone, and says so by connecting to it. With the chess judge at
--time-scale 0.1 (a 1 s clock), the slow copy runs out of time.

So that the copy is not started too late to meet the first (a loaded machine starts
Python slowly, and a short game may end first), the first waits on its second turn
until a copy connects, at most 0.6 s (within the clock: no timing finding).
"""
import os
import socket
import sys
import time

alone = True
_holder = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
_name = "\0" + os.environ.get("LOCK", "prototest-slow-beside-itself")
try:
    _holder.bind(_name)
    _holder.listen(1)
except OSError:
    alone = False
    try:
        _holder.connect(_name)  # tell the first copy this one is here
    except OSError:
        pass

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import Bot  # noqa: E402


class SlowBesideItself(Bot):
    def play_turn(self, last, mine, theirs, fen):
        if not alone and self.turn == 1:
            time.sleep(1.5)
        if alone and self.turn == 2:
            _holder.settimeout(0.6)
            try:
                _holder.accept()
            except OSError:
                pass
        super().play_turn(last, mine, theirs, fen)


if __name__ == "__main__":
    SlowBesideItself().run()

#!/usr/bin/env python3
"""Fault: reads the colour and the first turn line, then waits in select() on nothing, for
ever, never answering. Asleep, it uses no CPU; but a wait in select() may be a wait for a
peer (a socket, another copy of the bot), which a game beside it could hold up: its timeout,
with other games at once, is played again alone (hangs.py's, asleep in a sleep, is not)."""
import os
import select
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import Bot  # noqa: E402


class HangsInSelect(Bot):
    def play_turn(self, last, mine, theirs, fen):
        while True:
            select.select([], [], [])


if __name__ == "__main__":
    HangsInSelect().run()

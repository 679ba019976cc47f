#!/usr/bin/env python3
"""Not a fault: on its 1st turn fills 600 MB (every page touched), frees it and answers: under CodinGame's 768 MB."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import Bot  # noqa: E402

FILL_BYTES = 600 << 20
#: The turn it fills on; FILL_TURN=0 in its environment: at start-up, before its first read.
FILL_TURN = int(os.environ.get("FILL_TURN", "1"))
PAGE = 4096


def fill(size):
    """Memory in use, not only reserved: a byte written on every page, then freed."""
    block = bytearray(size)
    block[::PAGE] = b"\x01" * len(range(0, size, PAGE))
    del block


class Memory600MB(Bot):
    def choose(self, turn):
        if self.turn == FILL_TURN:
            fill(FILL_BYTES)
        return super().choose(turn)

    def start(self):
        if FILL_TURN == 0:
            fill(FILL_BYTES)


if __name__ == "__main__":
    Memory600MB().run()

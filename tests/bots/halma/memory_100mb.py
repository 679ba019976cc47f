#!/usr/bin/env python3
"""Not a fault: on its 3rd turn fills 100 MB (every page touched), frees it and answers: with the interpreter's own memory, under Proglad's 128 MB."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import Bot  # noqa: E402

FILL_BYTES = 100 << 20
#: The turn it fills on; FILL_TURN=0 in its environment: at start-up, before `ready`.
FILL_TURN = int(os.environ.get("FILL_TURN", "3"))
PAGE = 4096


def fill(size):
    """Memory in use, not only reserved: a byte written on every page, then freed."""
    block = bytearray(size)
    block[::PAGE] = b"\x01" * len(range(0, size, PAGE))
    del block


class Memory100MB(Bot):
    def play_turn(self):
        if self.turn == FILL_TURN:
            fill(FILL_BYTES)
        super().play_turn()

    def handshake(self):
        if FILL_TURN == 0:
            fill(FILL_BYTES)
        super().handshake()


if __name__ == "__main__":
    Memory100MB().run()

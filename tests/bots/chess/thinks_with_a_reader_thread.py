#!/usr/bin/env python3
"""Not a fault: a thread of its own reads stdin (and sits in that read) while the main thread thinks, busy, for 1.5 s on its first turn."""
import os
import queue
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import chess  # noqa: E402
from _common import choose_move, format_move  # noqa: E402

THINK_S = 1.5


def main():
    lines = queue.Queue()

    def reader():  # as an engine's input thread: always waiting for the next line
        for line in sys.stdin:
            lines.put(line)
        lines.put(None)

    threading.Thread(target=reader, daemon=True).start()
    if lines.get() is None:  # the colour
        return
    first = True
    while (line := lines.get()) is not None:
        words = line.split(None, 3)
        if len(words) < 4:  # A/D status lines
            continue
        board = chess.Board(words[3].strip())
        if first:  # think: the CPU is busy, the reader still sits in its read
            end = time.monotonic() + THINK_S
            while time.monotonic() < end:
                pass
            first = False
        move = choose_move(board)
        if move is not None:
            sys.stdout.write(format_move(board, move) + "\n")
            sys.stdout.flush()


if __name__ == "__main__":
    main()

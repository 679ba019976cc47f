#!/usr/bin/env python3
"""Reference bot for Halma 16x16 on Proglad (`halma-quad`): small, fast and always correct.

Run it as `python3 -m prototest.bots.halma_bot`. The protocol, over stdin/stdout, one
line each way:

* start-up: write `ready` (and flush) at once; then read `start p` (p = 1 or 2; player 1
  starts in the top-left camp and moves first);
* each turn: read `yourmove`, answer one line `move x1 y1 x2 y2 ... xk yk` (1-based, x the
  column from the left, y the row from the top) within 50 ms, and flush;
* after every move of either player, its own included, read `move ...` with the move
  played: the bot tracks the position from these lines only;
* when the judge closes stdin, exit with status 0.

Play: the greedy move of prototest's built-in opponent (`halma.choose_move`, style
"greedy"), ties broken by a generator seeded with a fixed number, so a game is always
played the same way.
"""

from __future__ import annotations

import random
import sys

from prototest.games import halma

SEED = 20240601


def main() -> None:
    out = sys.stdout
    out.write("ready\n")
    out.flush()
    rules = halma.make_rules({})
    position = rules.initial()
    rng = random.Random(SEED)
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "yourmove":
            move = halma.choose_move(position, rng, "greedy")
            out.write(f"move {move}\n")
            out.flush()
        elif words[0] == "move":
            position = position.play(" ".join(words[1:]))
        # `start p` needs nothing: the echoes say whose move it was.
    sys.exit(0)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Reference bot for Lines of Action on CodinGame: small, fast and always correct.

Run it as `python3 -m prototest.bots.loa_bot`. The dialogue is the CodinGame one
(see `prototest.bots.codingame`): colour on the first turn, then each turn 8 board
lines (`. b w`, rank 8 first), the last move (`null`, `pass` or `e2e3`), the move count
and the moves; the answer is one listed move (`e2e3`, or `pass` when that is the only
one), flushed; exit 0 when stdin ends.

Play: the greedy move of prototest's built-in opponent (a win, then fewer groups, then
a capture, then a tighter cluster), ties broken by a generator seeded with the board.
"""

from __future__ import annotations

from prototest.bots.codingame import main_for


def main() -> None:
    main_for("loa")


if __name__ == "__main__":
    main()

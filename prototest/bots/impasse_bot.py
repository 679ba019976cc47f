#!/usr/bin/env python3
"""Reference bot for Impasse on CodinGame: small, fast and always correct.

Run it as `python3 -m prototest.bots.impasse_bot`. The dialogue is the CodinGame one
(see `prototest.bots.codingame`): colour on the first turn, then each turn 8 board
lines (`. w W b B`, rank 8 first), the last move, the move count and the moves; the
answer is one listed move (`d2f4`, `f8g7c5`, `b6`), flushed; exit 0 when stdin ends.

Play: the greedy move of prototest's built-in opponent (most progress towards bearing
off), ties broken by a generator seeded with the board.
"""

from __future__ import annotations

from prototest.bots.codingame import main_for


def main() -> None:
    main_for("impasse")


if __name__ == "__main__":
    main()

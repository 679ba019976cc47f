"""The reference bot for `connect4`: run as `python -m prototest_connect4.bot`.

Reads the dialogue of connect4.toml (its seat on the first turn; each turn 6 board rows,
the last move, the move count and the moves), answers a winning column, else one that
blocks the opponent's win, else the column nearest the centre; flushes each answer and
exits with status 0 when stdin ends.
"""

from __future__ import annotations

import sys
from typing import Callable

from prototest_connect4.rules import ROWS, Position, make_rules, prefer

RULES = make_rules({})


def play(choose: Callable[[Position, str, list[str], list[str]], str]) -> int:
    """The dialogue: `choose(position, seat, rows, listed moves)` answers each turn."""
    lines = (line.strip() for line in sys.stdin)
    try:
        seat = next(lines)
        while True:
            rows = [next(lines) for _ in range(ROWS)]
            next(lines)  # the opponent's last move: the board says it all
            moves = [next(lines) for _ in range(int(next(lines)))]
            position = RULES.parse("/".join(rows) + " " + seat)
            print(choose(position, seat, rows, moves), flush=True)
    except StopIteration:
        return 0


def main() -> int:
    return play(lambda position, seat, rows, moves: (prefer(position, "greedy", moves) or moves)[0])


if __name__ == "__main__":
    sys.exit(main())

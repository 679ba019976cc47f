"""The reference bot for `connect4`: run as `python -m prototest_connect4.bot`.

Reads the dialogue of connect4.toml (its seat on the first turn; each turn 6 board rows,
the last move, the move count and the moves), answers a winning column, else one that
blocks the opponent's win, else the column nearest the centre; flushes each answer and
exits with status 0 when stdin ends.
"""

from __future__ import annotations

import sys

from prototest_connect4.rules import ROWS, make_rules, prefer

RULES = make_rules({})


def main() -> int:
    lines = (line.strip() for line in sys.stdin)
    try:
        seat = next(lines)
        while True:
            rows = [next(lines) for _ in range(ROWS)]
            next(lines)  # the opponent's last move: the board says it all
            moves = [next(lines) for _ in range(int(next(lines)))]
            position = RULES.parse("/".join(rows) + " " + seat)
            print((prefer(position, "greedy", moves) or moves)[0], flush=True)
    except StopIteration:
        return 0


if __name__ == "__main__":
    sys.exit(main())

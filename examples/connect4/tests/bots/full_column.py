"""A planted fault: sometimes plays a full column.

It plays like the reference bot (a win, else a block, else the column nearest the
centre) but chooses among the columns it reads as open from the board, not among the
listed moves, and its test is off by one: a column counts as full only above 6 discs.
Once the centre column is full (an opponent that blocks it there fills it) it plays it
again. `prototest check` and `prototest fuzz --game connect4` both catch it.
"""

from __future__ import annotations

import sys

from prototest_connect4.rules import COLUMNS, ROWS, make_rules

RULES = make_rules({})


def main() -> int:
    lines = (line.strip() for line in sys.stdin)
    try:
        seat = next(lines)
        while True:
            rows = [next(lines) for _ in range(ROWS)]
            next(lines)
            for _ in range(int(next(lines))):
                next(lines)  # the listed moves: not read (the fault)
            position = RULES.parse("/".join(rows) + " " + seat)
            heights = [sum(row[c] != "." for row in rows) for c in range(len(COLUMNS))]
            mine = [m for m, h in zip(COLUMNS, heights) if h <= ROWS]  # the fault: h < ROWS
            other = "o" if seat == "x" else "x"
            choice = position.winning(seat) or position.winning(other) or sorted(mine, key=lambda m: abs(int(m) - 4))
            print(choice[0], flush=True)
    except StopIteration:
        return 0


if __name__ == "__main__":
    sys.exit(main())
